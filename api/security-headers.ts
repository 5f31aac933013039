// Security headers, as h3 middleware: `nosniff` and a referrer policy on every response (errors included),
// and on HTML a Content-Security-Policy that allows no script at all except where a page needs one
// (the per-path map below). Pages hold untrusted contract text: even if escaping ever failed, a strict
// policy keeps injected markup from running.
import { type H3Event, HTTPError, type Middleware, toResponse } from 'h3';
import { renderError } from './errors.ts';

type Directives = Record<string, string>;

/** The policy of every HTML page: nothing but same-origin images and styles. */
export const BASE_POLICY: Directives = {
  'default-src': "'none'",
  'img-src': "'self' data:",
  'style-src': "'self' 'unsafe-inline'",
  'base-uri': "'none'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
};

/**
 * Additions per path prefix (the longest matching prefix wins). The search page runs its own script from
 * /search/ and fetches the index shards next to it; an inline script would be allowed by its hash here
 * (`'sha256-…'`), never by 'unsafe-inline'.
 */
export const PAGE_POLICIES: Record<string, Directives> = {
  '/search/': { 'script-src': "'self'", 'connect-src': "'self'" },
};

export function contentSecurityPolicy(pathname: string): string {
  let extra: Directives = {};
  let best = -1;
  for (const [prefix, directives] of Object.entries(PAGE_POLICIES)) {
    if (pathname.startsWith(prefix) && prefix.length > best) { extra = directives; best = prefix.length; }
  }
  return Object.entries({ ...BASE_POLICY, ...extra }).map(([k, v]) => `${k} ${v}`).join('; ');
}

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
