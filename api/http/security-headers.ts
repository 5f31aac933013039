// Security headers, as h3 middleware: `nosniff` and a referrer policy on every response (errors included),
// and on HTML the Content-Security-Policy defined in build/discovery/csp.ts, which the CDN's `_headers`
// file carries too, so a page has the same policy whichever serves it.
//
// Headers are staged on event.res (h3 merges them into whatever the route answers, errHeaders into error
// answers) instead of copying each finished Response: a copy turns the body into a web stream, which
// cost a third of the server's throughput on search responses.
import type { H3Event, Middleware } from 'h3';
import { contentSecurityPolicy } from '../../build/discovery/csp.ts';

export { contentSecurityPolicy } from '../../build/discovery/csp.ts';

export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const HTML = /^text\/html\b/i;

/** The content type a route's answer will have: its own headers when it is a response, else the staged ones. */
function contentTypeOf(event: H3Event, value: unknown): string {
  const own = (value as { headers?: Headers } | null)?.headers;
  return (own instanceof Headers ? own.get('content-type') : null) ?? event.res.headers.get('content-type') ?? '';
}

/** Adds the page's CSP when the answer is HTML (dist pages today; any HTML route tomorrow). */
function withPolicy<T>(event: H3Event, value: T): T {
  if (!HTML.test(contentTypeOf(event, value))) return value;
  const policy = contentSecurityPolicy(event.url.pathname);
  event.res.headers.set('content-security-policy', policy);
  event.res.errHeaders.set('content-security-policy', policy);
  return value;
}

export function securityHeaders(): Middleware {
  return (event, next) => {
    for (const [k, v] of Object.entries(COMMON_HEADERS)) {
      event.res.headers.set(k, v);
      event.res.errHeaders.set(k, v);
    }
    const value = next();
    return value instanceof Promise ? value.then((v) => withPolicy(event, v)) : withPolicy(event, value);
  };
}
