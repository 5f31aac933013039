// Netlify's `_headers` and `_redirects` (also read by Cloudflare Pages), so `dist/` deploys there as is:
// static files from the CDN, dynamic paths proxied to the API server at API_ORIGIN.
import type { OutputFile } from './sitemap.ts';

/** Paths only the API server can answer; everything else in dist/ is static. */
export const DYNAMIC_PATHS = ['/api/*', '/admin/*', '/mcp', '/mcp/*', '/.well-known/mcp/*', '/health', '/openapi.json'] as const;

export function hostConfigFiles(apiOrigin: string): OutputFile[] {
  const redirects = [
    '# Dynamic paths go to the API server (status 200 = proxy, the URL stays the same).',
    ...DYNAMIC_PATHS.map((p) => `${p}  ${apiOrigin}${p.replace('/*', '/:splat')}  200`),
    '',
  ].join('\n');
  const headers = [
    '/*',
    '  X-Content-Type-Options: nosniff',
    '  Referrer-Policy: strict-origin-when-cross-origin',
    '  Cache-Control: public, max-age=300, stale-while-revalidate=3600',
    '/*.txt',
    '  Content-Type: text/plain; charset=utf-8',
    '/sitemap.xml',
    '  Content-Type: application/xml; charset=utf-8',
    '/sitemaps/*',
    '  Content-Type: application/xml; charset=utf-8',
    '/*.json',
    '  Access-Control-Allow-Origin: *',
    '/search/shards/*',
    '  Cache-Control: public, max-age=31536000, immutable',
    '',
  ].join('\n');
  return [
    { path: '_redirects', content: redirects },
    { path: '_headers', content: headers },
  ];
}
