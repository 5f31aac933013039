// CORS, as h3 middleware. The public API, MCP and the discovery documents are meant to be read from
// anywhere, including browser-based agents, so they are open to every origin (no credentials are
// involved: the public API has none). Admin routes are closed: no Access-Control-Allow-Origin ever, and
// their preflight is refused, so a page in a browser can never drive them with the admin's cookies or
// stored secrets.
import type { H3Event, Middleware } from 'h3';
import { HTTP } from '../messages.ts';
import { httpError } from './errors.ts';

/** Paths that must never be reachable cross-origin; checked before the public ones they overlap. */
const CLOSED = [/^\/admin(\/|$)/, /^\/api\/v1\/(admin|ingest|translate)(\/|$)/];
// The public API, MCP, and the discovery documents agents fetch from anywhere (OpenAPI, agent.json,
// /.well-known/*: agent and MCP documents, server cards), so their errors and preflights are open too.
const PUBLIC = [
  /^\/api\/v1\//,
  /^\/v0\.1\//,
  /^\/mcp(\/|$)/,
  /^\/openapi\.json$/,
  /^\/agent\.json$/,
  /^\/\.well-known\//,
];

export const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
// Streamable-HTTP MCP also ends a session with DELETE.
export const MCP_METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';
export const ALLOWED_HEADERS = 'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
export const EXPOSED_HEADERS = 'Retry-After, Allow, Mcp-Session-Id, Mcp-Protocol-Version';
const MAX_AGE_S = '86400';
const CLOSED_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
];

export type CorsClass = 'public' | 'closed' | 'other';

export function corsClassOf(pathname: string): CorsClass {
  if (CLOSED.some((re) => re.test(pathname))) return 'closed';
  if (PUBLIC.some((re) => re.test(pathname))) return 'public';
  return 'other';
}

export function cors(): Middleware {
  return async (event: H3Event, next) => {
    const kind = corsClassOf(event.url.pathname);
    if (kind === 'other') return next();
    if (event.req.method === 'OPTIONS') {
      if (kind === 'closed') throw httpError(403, HTTP.crossOriginAdmin);
      const methods = event.url.pathname.startsWith('/mcp') ? MCP_METHODS : ALLOWED_METHODS;
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': methods,
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': MAX_AGE_S,
          allow: methods,
        },
      });
    }
    // Staged on event.res, which h3 merges into the route's answer (errHeaders: into errors), so the
    // answer itself is never copied. Closed routes get nothing staged, and nothing a route set survives.
    if (kind === 'public') {
      for (const headers of [event.res.headers, event.res.errHeaders]) {
        headers.set('access-control-allow-origin', '*');
        headers.set('access-control-expose-headers', EXPOSED_HEADERS);
      }
      return next();
    }
    const value = await next();
    for (const headers of [event.res.headers, event.res.errHeaders, (value as { headers?: unknown } | null)?.headers]) {
      if (headers instanceof Headers) for (const h of CLOSED_HEADERS) headers.delete(h);
    }
    return value;
  };
}
