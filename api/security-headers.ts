// Security headers, as h3 middleware: `nosniff` and a referrer policy on every response (errors included),
// and on HTML the Content-Security-Policy defined in build/discovery/csp.ts, which the CDN's `_headers`
// file carries too, so a page has the same policy whichever serves it.
import { type H3Event, HTTPError, type Middleware, toResponse } from 'h3';
import { contentSecurityPolicy } from '../build/discovery/csp.ts';
import { renderError } from './errors.ts';

export { BASE_POLICY, contentSecurityPolicy, PAGE_POLICIES } from '../build/discovery/csp.ts';

export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const renderConfig = { onError: renderError };
const finalized = new WeakSet<Response>();
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * What the rest of the chain answers, as a Response whose headers may be changed: thrown errors are
 * rendered by the one error renderer (so they get the headers too), and the headers are copied because
 * h3 may hand out shared frozen ones.
 */
export async function responseOf(event: H3Event, next: () => unknown): Promise<Response> {
  let value: unknown;
  try {
    value = await next();
  } catch (error) {
    value = error instanceof Error ? error : new HTTPError({ status: 500, cause: error });
  }
  const res = await toResponse(value, event, renderConfig);
  if (finalized.has(res)) return res;
  const out = new Response(NULL_BODY.has(res.status) ? null : res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
  finalized.add(out);
  return out;
}

export function securityHeaders(): Middleware {
  return async (event, next) => {
    const res = await responseOf(event, next);
    for (const [k, v] of Object.entries(COMMON_HEADERS)) res.headers.set(k, v);
    if (/^text\/html\b/i.test(res.headers.get('content-type') ?? '')) {
      res.headers.set('content-security-policy', contentSecurityPolicy(event.url.pathname));
    }
    return res;
  };
}
