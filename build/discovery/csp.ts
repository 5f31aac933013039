// The Content-Security-Policy of every HTML page, in one place for both ways pages are served: the API
// server's security headers (api/security-headers.ts) and the CDN's `_headers` file (host-config.ts).
// No script at all except where a page needs one (the per-path map below). Pages hold untrusted contract
// text: even if escaping ever failed, a strict policy keeps injected markup from running.

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
    if (pathname.startsWith(prefix) && prefix.length > best) {
      extra = directives;
      best = prefix.length;
    }
  }
  return Object.entries({ ...BASE_POLICY, ...extra })
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}
