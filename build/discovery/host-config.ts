// Netlify's `_headers` and `_redirects` (also read by Cloudflare Pages), so `dist/` deploys there as is:
// static files from the CDN, dynamic paths proxied to the API server at API_ORIGIN.
import { API_PAGE_PATHS } from '../pipeline/api-site-data.ts';
import { contentSecurityPolicy } from './csp.ts';
import type { OutputFile } from './sitemap.ts';

/** Paths only the API server can answer; everything else in dist/ is static. */
export const DYNAMIC_PATHS = [
  '/api/*',
  '/admin/*',
  '/mcp',
  '/mcp/*',
  '/.well-known/mcp/*',
  '/health',
  '/openapi.json',
  '/v0.1/*',
] as const;

/**
 * Every HTML page of dist/, as `_headers` path patterns. Listed one by one instead of `/*`: the hosts join
 * the values of a header set by several matching rules, and two CSPs are both enforced, so the search
 * page's own script would be blocked by the base policy of a catch-all rule.
 */
export const HTML_PATHS = ['/', '/page/*', '/tools/*', '/search/', ...API_PAGE_PATHS.flatMap((p) => [p, `${p}/`])];

const OPERATIONS = '/api/v1/services/:name/operations';
/** A list asked for with any of these (ranked for an intent, or one page of it) is the API server's to answer. */
const OPERATION_LIST_QUERIES = ['q', 'limit', 'offset'] as const;

/**
 * The static recipe copies (build/discovery/api-recipes-static.ts) answer the operation paths, gzip-only
 * files under the paths the API serves. Rules above the `/api/*` proxy, first match wins.
 */
const recipeRewrites = (apiOrigin: string) => [
  '# Operation recipes: static gzipped copies; a list ranked for an intent or paged goes to the API server.',
  ...OPERATION_LIST_QUERIES.map((q) => `${OPERATIONS}  ${q}=:${q}  ${apiOrigin}${OPERATIONS}  200`),
  `${OPERATIONS}  ${OPERATIONS}.json.gz  200`,
  `${OPERATIONS}/:id  ${OPERATIONS}/:id.json.gz  200`,
];

export function hostConfigFiles(apiOrigin: string): OutputFile[] {
  const redirects = [
    ...recipeRewrites(apiOrigin),
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
    // One rule for the recipe files and the paths rewritten to them (operations, operations.json.gz,
    // operations/<id>, operations/<id>.json.gz), so the encoding is set once whichever of the two paths a
    // host matches headers on.
    '/api/v1/services/*/operations*',
    '  Content-Type: application/json',
    '  Content-Encoding: gzip',
    '  Access-Control-Allow-Origin: *',
    // No longer lifetime for the search index: its file names (terms/N.json, docs/N.json) are not content
    // hashes, so a year-long rule would pair new manifests with old shards; and a second Cache-Control
    // rule would be joined with the one above, not replace it.
    // The policy the API server sends with the same pages (build/discovery/csp.ts).
    ...HTML_PATHS.flatMap((p) => [p, `  Content-Security-Policy: ${contentSecurityPolicy(p)}`]),
    '',
  ].join('\n');
  return [
    { path: '_redirects', content: redirects },
    { path: '_headers', content: headers },
  ];
}
