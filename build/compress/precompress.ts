// Writes `<file>.br` and `<file>.gz` beside every compressible file of a build, so the server (and a CDN
// that understands precompressed files) sends compressed bytes without compressing per request.
// zlib's async calls run on libuv's thread pool: the compression is off the main thread, several files
// at a time. A file the previous build already had (hard-linked by an incremental build: same inode)
// takes the previous build's compressed files as links instead of being compressed again.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats the site holds; images and already-compressed formats are left alone. */
const COMPRESSIBLE = new Set(['.html', '.json', '.xml', '.txt', '.js', '.mjs', '.css', '.svg', '.map']);
/** Below this, compression saves less than a packet and costs a file pair each. */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * Measured on the bundled site (2,358 files, 8.4 MB): brotli 5 + gzip 6 took 1.7 s and gave 1.71 / 1.89 MB;
 * brotli 9 + gzip 9 took 66 s for 1.70 / 1.88 MB; brotli 11 took 119 s for 1.53 MB. Not worth it.
 */
const QUALITY = { br: 5, gzip: 6 } as const;
/** Files compressed at once (zlib's thread pool has four threads by default). */
const PARALLEL = 8;

export interface CompressStats {
  files: number;
  linked: number;
  bytes: number;
  brBytes: number;
  gzBytes: number;
}

export const isCompressible = (file: string) => COMPRESSIBLE.has(path.extname(file).toLowerCase());

/**
 * Every compressible file under `dir`. Symlinks are not followed: the only ones in a build are the API
 * recipe folders (build/discovery/api-recipes-static.ts), gzipped already, whose 124,500 files a recursive
 * readdir (which follows them) would list in every build.
 */
async function compressibleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    const entries = await fsp.readdir(d, { withFileTypes: true });
    await Promise.all(
      entries.map((e) => {
        const p = path.join(d, e.name);
        if (e.isDirectory()) return walk(p);
        if (e.isFile() && isCompressible(e.name)) out.push(p);
        return undefined;
      }),
    );
  };
  await walk(dir);
  return out.sort();
}

async function sameInode(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([fsp.stat(a).catch(() => null), fsp.stat(b).catch(() => null)]);
  return Boolean(sa && sb && sa.ino === sb.ino && sa.dev === sb.dev);
}

/** Links the previous build's .br and .gz of an unchanged file; false when it had none. */
async function linkPrevious(file: string, prevFile: string): Promise<boolean> {
  try {
    await fsp.link(`${prevFile}.br`, `${file}.br`);
    await fsp.link(`${prevFile}.gz`, `${file}.gz`);
    return true;
  } catch {
    await fsp.rm(`${file}.br`, { force: true });
    return false;
  }
}

export async function precompress(buildDir: string, prevDir: string | null = null): Promise<CompressStats> {
  const files = await compressibleFiles(buildDir);
  const stats: CompressStats = { files: 0, linked: 0, bytes: 0, brBytes: 0, gzBytes: 0 };
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++] as string;
      const data = await fsp.readFile(file);
      if (data.length < MIN_COMPRESS_BYTES) continue;
      const prevFile = prevDir ? path.join(prevDir, path.relative(buildDir, file)) : null;
      if (prevFile && (await sameInode(file, prevFile)) && (await linkPrevious(file, prevFile))) {
        stats.linked++;
        continue;
      }
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY.br,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: QUALITY.gzip }),
      ]);
      await Promise.all([fsp.writeFile(`${file}.br`, br), fsp.writeFile(`${file}.gz`, gz)]);
      stats.files++;
      stats.bytes += data.length;
      stats.brBytes += br.length;
      stats.gzBytes += gz.length;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return stats;
}
