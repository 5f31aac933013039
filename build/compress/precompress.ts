// Writes `<file>.br` and `<file>.gz` beside every compressible file of a build, so the server (and a CDN
// that understands precompressed files) sends compressed bytes without compressing per request.
// The build runs it on both of its threads at once: the worker thread compresses the files it wrote
// (static JSON, API manifests, search shards) while the main thread compresses the rest (HTML and the
// discovery files). Each file is read, compressed and written synchronously: for the small files of a
// site, the thread pool's round trips (five per file) cost more than the work (measured on a 10,000-tool
// build: about a third more CPU), and the build's two threads already keep both cores busy.
// A file the previous build already had (hard-linked by an incremental build: same inode) takes the
// previous build's compressed files as links instead of being compressed again.
import { linkSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Text formats the site holds; images and already-compressed formats are left alone. */
const COMPRESSIBLE = new Set(['.html', '.json', '.xml', '.txt', '.js', '.mjs', '.css', '.svg', '.map']);
/** Below this, compression saves less than a packet and costs a file pair each. */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * Measured on the bundled site (2,358 files, 8.4 MB): brotli 5 + gzip 6 took 1.7 s and gave 1.71 / 1.89 MB;
 * brotli 9 + gzip 9 took 66 s for 1.70 / 1.88 MB; brotli 11 took 119 s for 1.53 MB. Not worth it.
 */
const QUALITY = { br: 5, gzip: 6 } as const;
/** Files between two turns of the event loop (so a thread's messages and timers are not held up). */
const YIELD_EVERY = 200;

export interface CompressStats {
  files: number;
  linked: number;
  bytes: number;
  brBytes: number;
  gzBytes: number;
}

export const isCompressible = (file: string) => COMPRESSIBLE.has(path.extname(file).toLowerCase());

/** Which part of a build a pass covers: only these top-level paths, or all but these (relative, `/`). */
export interface CompressScope {
  only?: readonly string[];
  skip?: readonly string[];
}

/** The build paths the worker thread writes and compresses (build/pipeline/worker-tasks.ts). */
export const WORKER_OUTPUTS: readonly string[] = ['static', 'api', 'search'];

const under = (rel: string, prefixes: readonly string[]) => prefixes.some((p) => rel === p || rel.startsWith(`${p}/`));

function compressibleFiles(dir: string, scope: CompressScope): string[] {
  const entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && isCompressible(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => {
      const rel = path.relative(dir, f).split(path.sep).join('/');
      return (!scope.only || under(rel, scope.only)) && !(scope.skip && under(rel, scope.skip));
    });
}

function sameInode(a: string, b: string): boolean {
  const sa = statSync(a, { throwIfNoEntry: false });
  const sb = statSync(b, { throwIfNoEntry: false });
  return Boolean(sa && sb && sa.ino === sb.ino && sa.dev === sb.dev);
}

/** Links the previous build's .br and .gz of an unchanged file; false when it had none. */
function linkPrevious(file: string, prevFile: string): boolean {
  try {
    linkSync(`${prevFile}.br`, `${file}.br`);
    linkSync(`${prevFile}.gz`, `${file}.gz`);
    return true;
  } catch {
    rmSync(`${file}.br`, { force: true });
    return false;
  }
}

export function emptyStats(): CompressStats {
  return { files: 0, linked: 0, bytes: 0, brBytes: 0, gzBytes: 0 };
}

export function addStats(a: CompressStats, b: CompressStats): CompressStats {
  return {
    files: a.files + b.files,
    linked: a.linked + b.linked,
    bytes: a.bytes + b.bytes,
    brBytes: a.brBytes + b.brBytes,
    gzBytes: a.gzBytes + b.gzBytes,
  };
}

export async function precompress(
  buildDir: string,
  prevDir: string | null = null,
  scope: CompressScope = {},
): Promise<CompressStats> {
  const files = compressibleFiles(buildDir, scope);
  const stats = emptyStats();
  for (let i = 0; i < files.length; i++) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
    const file = files[i] as string;
    const data = readFileSync(file);
    if (data.length < MIN_COMPRESS_BYTES) continue;
    const prevFile = prevDir ? path.join(prevDir, path.relative(buildDir, file)) : null;
    if (prevFile && sameInode(file, prevFile) && linkPrevious(file, prevFile)) {
      stats.linked++;
      continue;
    }
    const br = zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY.br,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gz = zlib.gzipSync(data, { level: QUALITY.gzip });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gz);
    stats.files++;
    stats.bytes += data.length;
    stats.brBytes += br.length;
    stats.gzBytes += gz.length;
  }
  return stats;
}
