// Serves the prebuilt dist/ with correct content types, ETag and Cache-Control. dist/ is a symlink that
// the build swaps atomically; each request resolves it anew, so a finished rebuild is served at once.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type H3Event, serveStatic } from 'h3';
import { isCompressible as isCompressibleType } from '../../build/compress/precompress.ts';
import { acceptedCodings, type Coding } from './accept-encoding.ts';

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
const EXTENSION: Readonly<Record<Coding, string>> = { br: '.br', gzip: '.gz' };

/**
 * A file the build wrote gzipped only (`<file>.gz` and no `<file>`: the API recipes, too many to keep
 * twice; build/discovery/api-recipes-static.ts): sent as it is with `Content-Encoding: gzip` to a client
 * that takes gzip, unpacked for one that does not. Only for text formats, so a real `.tar.gz` is never
 * mistaken for one.
 */
async function gzipOnly(file: string, takesGzip: boolean) {
  if (!isCompressibleType(file)) return null;
  const stat = await fsp.stat(`${file}.gz`).catch(() => null);
  if (!stat?.isFile()) return null;
  const tag = (size: number, encoding: string) =>
    `W/"${size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}-${encoding}"`;
  const base = { mtime: stat.mtimeMs, type: contentTypeOf(file) };
  if (takesGzip)
    return { body: null, meta: { ...base, size: stat.size, encoding: 'gzip', etag: tag(stat.size, 'gzip') } };
  const body = gunzipSync(await fsp.readFile(`${file}.gz`));
  return { body, meta: { ...base, size: body.length, etag: tag(stat.size, 'identity') } };
}

export function serveDist(event: H3Event, distDir: string) {
  const accepted = acceptedCodings(event.req.headers.get('accept-encoding'));
  /** The file actually sent for an id: its .br or .gz when the client takes it and the build wrote it. */
  const chosen = new Map<string, string>();
  /** Bodies unpacked from a gzip-only file for a client that does not take gzip. */
  const unpacked = new Map<string, NonSharedBuffer>();
  event.res.headers.set('vary', 'accept-encoding');
  return serveStatic(event, {
    fallthrough: true,
    headers: { 'cache-control': CACHE_CONTROL },
    indexNames: ['/index.html'],
    async getMeta(id) {
      const file = path.join(distDir, id);
      const stat = await fsp.stat(file).catch(() => null);
      if (!stat) {
        const only = await gzipOnly(file, accepted.includes('gzip'));
        if (!only) return undefined;
        if (only.body) unpacked.set(id, only.body);
        else chosen.set(id, `${file}.gz`);
        return only.meta;
      }
      if (!stat.isFile()) return undefined;
      for (const encoding of accepted) {
        const ext = EXTENSION[encoding];
        const encoded = await fsp.stat(file + ext).catch(() => null);
        if (!encoded?.isFile()) continue;
        chosen.set(id, file + ext);
        return {
          size: encoded.size,
          mtime: encoded.mtimeMs,
          type: contentTypeOf(file),
          encoding,
          etag: `W/"${encoded.size.toString(36)}-${Math.floor(encoded.mtimeMs).toString(36)}-${encoding}"`,
        };
      }
      return {
        size: stat.size,
        mtime: stat.mtimeMs,
        type: contentTypeOf(file),
        etag: `W/"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
      };
    },
    async getContents(id) {
      return unpacked.get(id) ?? fsp.readFile(chosen.get(id) ?? path.join(distDir, id));
    },
  });
}
