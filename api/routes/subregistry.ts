// The MCP subregistry, in the official MCP registry's read API (v0.1): GET /v0.1/servers,
// GET /v0.1/servers/{serverName}/versions and /v0.1/servers/{serverName}/versions/{version}. Server names
// hold a slash, so clients send them URL-encoded in one segment (io.github.owner%2Frepo), as the official API
// documents. The work is in services/subregistry.ts.
import { getRouterParam, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { SUBREGISTRY } from '../messages.ts';
import { DomainError } from '../services/errors.ts';
import { listServers, serverVersion, serverVersions } from '../services/subregistry.ts';

/** Decoded once, here: h3's own decoding leaves %2F encoded (decodeURI), and decoding twice would turn %252F into /. */
function param(event: H3Event, name: string): string {
  const raw = getRouterParam(event, name) ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // the request guard refuses paths that do not decode before any route runs
  }
}
const query = (event: H3Event, name: string) => event.url.searchParams.getAll(name).at(-1);

export function subregistryRoutes(app: H3, ctx: AppContext) {
  app.get('/v0.1/servers', (event) =>
    listServers(ctx, {
      cursor: query(event, 'cursor'),
      limit: query(event, 'limit'),
      search: query(event, 'search'),
      updated_since: query(event, 'updated_since'),
      version: query(event, 'version'),
      include_deleted: query(event, 'include_deleted'),
    }),
  );

  app.get('/v0.1/servers/:serverName/versions', (event) =>
    serverVersions(ctx, param(event, 'serverName'), query(event, 'include_deleted')),
  );

  app.get('/v0.1/servers/:serverName/versions/:version', (event) =>
    serverVersion(ctx, param(event, 'serverName'), param(event, 'version'), query(event, 'include_deleted')),
  );

  // Nothing else under /v0.1/ exists (and nothing there may fall through to a file of dist/): a name sent
  // with its slash unencoded lands here too, and is told it was not found.
  app.get('/v0.1/**', (event) => {
    throw new DomainError('not_found', SUBREGISTRY.serverNotFound(decodeURIComponent(event.url.pathname)));
  });
}
