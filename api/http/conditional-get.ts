// ETag, If-None-Match → 304 and a short Cache-Control for the API answers that are a pure function of
// their URL and the stored data: contracts by aid, API manifests, instructions, /openapi.json, the agent
// documents and server cards. The ETag is a hash of the exact body, so it covers everything in it, the
// live telemetry counters of a contract included: a new report changes the body and so the ETag.
// Answers with live counters are `no-cache` (a client may keep them, but revalidates each time);
// searches and listings are neither (they change with every report).
import { createHash } from 'node:crypto';
import type { H3Event, Middleware } from 'h3';

const LIVE = 'no-cache';
const SHORT = 'public, max-age=60';

/** Cache-Control by route pattern (h3's matched route); routes not listed get no validators. */
const RULES: Readonly<Record<string, string>> = {
  '/api/v1/tools/:aid': LIVE,
  '/api/v1/tools/:aid/instructions': SHORT,
  '/api/v1/services/:service_name/mai-api.json': SHORT,
  '/openapi.json': SHORT,
  // Agent documents carry live catalog counts, which the ETag covers.
  '/agent.json': LIVE,
  '/.well-known/agent.json': LIVE,
  '/.well-known/mcp.json': LIVE,
  '/.well-known/mcp/server-card.json': SHORT,
  '/mcp/server-card': SHORT,
};

const etagOf = (body: string) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/** Does an If-None-Match header name this ETag (weak comparison, as RFC 9110 asks for GET)? */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

async function withValidators(event: H3Event, value: unknown, cacheControl: string): Promise<unknown> {
  let body: string;
  let response: Response;
  if (value instanceof Response) {
    if (value.status !== 200) return value;
    body = await value.text();
    response = new Response(body, { status: 200, headers: value.headers });
  } else if (value !== null && typeof value === 'object') {
    body = JSON.stringify(value);
    response = new Response(body, { headers: { 'content-type': 'application/json;charset=UTF-8' } });
  } else {
    return value;
  }
  const etag = etagOf(body);
  event.res.headers.set('etag', etag);
  event.res.headers.set('cache-control', cacheControl);
  if (matches(event.req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304 });
  return response;
}

export function conditionalGet(): Middleware {
  return (event, next) => {
    if (event.req.method !== 'GET' && event.req.method !== 'HEAD') return next();
    const route = (event.context.matchedRoute as { route?: string } | undefined)?.route;
    const rule = route ? RULES[route] : undefined;
    if (!rule) return next();
    const value = next();
    return value instanceof Promise
      ? value.then((v) => withValidators(event, v, rule))
      : withValidators(event, value, rule);
  };
}
