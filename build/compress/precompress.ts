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

/** The copies each compressible file gets. */
export const COMPRESSED_EXTENSIONS = ['.br', '.gz'] as const;

/**
 * The compressible files of the scope that still lack their compressed copies. Copies linked with their
 * file by an incremental build (build/pipeline/incremental.ts) show in the same directory listing, so
 * those files cost no read and no stat here.
 */
function filesToCompress(dir: string, scope: CompressScope): { files: string[]; present: number } {
  const all = filesUnder(dir);
  const names = new Set(all);
  const files: string[] = [];
  let present = 0;
  for (const f of all) {
    if (!isCompressible(f)) continue;
    const rel = path.relative(dir, f).split(path.sep).join('/');
    if ((scope.only && !under(rel, scope.only)) || (scope.skip && under(rel, scope.skip))) continue;
    if (COMPRESSED_EXTENSIONS.every((ext) => names.has(f + ext))) present++;
    else files.push(f);
  }
  return { files, present };
}

/**
 * Every file under `dir`. Symlinked folders are not entered: the only ones in a build are the API recipe
 * copies (build/discovery/api-recipes-static.ts), gzipped already, whose 124,500 files a recursive readdir
 * (which follows them) would list in every build.
 */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Is this file the previous build's own, hard-linked into this one (same inode)? */
function linkedFromPrevious(file: string, prevFile: string): boolean {
  const sa = statSync(file);
  // A file this build wrote has one link; only a linked one can be the previous build's.
  if (sa.nlink < 2) return false;
  const sb = statSync(prevFile, { throwIfNoEntry: false });
  return Boolean(sb && sa.ino === sb.ino && sa.dev === sb.dev);
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
  const { files, present } = filesToCompress(buildDir, scope);
  const stats = emptyStats();
  stats.linked = present;
  for (let i = 0; i < files.length; i++) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
    const file = files[i] as string;
    const prevFile = prevDir ? path.join(prevDir, path.relative(buildDir, file)) : null;
    if (prevFile && linkedFromPrevious(file, prevFile) && linkPrevious(file, prevFile)) {
      stats.linked++;
      continue;
    }
    const data = readFileSync(file);
    if (data.length < MIN_COMPRESS_BYTES) continue;
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
