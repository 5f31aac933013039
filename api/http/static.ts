// Serves the prebuilt dist/ with correct content types, ETag and Cache-Control. dist/ is a symlink that
// the build swaps atomically; each request resolves it anew, so a finished rebuild is served at once.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { type H3Event, serveStatic } from 'h3';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.gz': 'application/gzip',
};

/** Extensionless files (Netlify's `_headers`, `_redirects`) are plain text. */
export const contentTypeOf = (file: string) => TYPES[path.extname(file).toLowerCase()] ?? 'text/plain; charset=utf-8';

/** One lifetime for every file, as the CDN's `_headers` gives (no dist/ file name carries a content hash). */
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';

/** The precompressed files the build writes beside each compressible one (build/compress/precompress.ts). */
const ENCODINGS: Record<string, string> = { br: '.br', gzip: '.gz' };
const ENCODED = /\.(br|gz)$/;

export function serveDist(event: H3Event, distDir: string) {
  return serveStatic(event, {
    fallthrough: true,
    encodings: ENCODINGS,
    headers: { 'cache-control': CACHE_CONTROL },
    indexNames: ['/index.html'],
    async getMeta(id) {
      const file = path.join(distDir, id);
      const stat = await fsp.stat(file).catch(() => null);
      if (!stat?.isFile()) return undefined;
      // `x.json.br` asked for as `x.json` (serveStatic tries the encodings the client accepts first): the
      // type is the original's and the encoding is said; asked for by its own name, it is a plain file.
      const encoded = id !== event.url.pathname && ENCODED.test(id);
      return {
        size: stat.size,
        mtime: stat.mtimeMs,
        type: contentTypeOf(encoded ? file.replace(ENCODED, '') : file),
        ...(encoded ? { encoding: id.endsWith('.br') ? 'br' : 'gzip' } : {}),
        etag: `W/"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
      };
    },
    async getContents(id) {
      return fsp.readFile(path.join(distDir, id));
    },
  });
}
