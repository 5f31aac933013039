// Writes `<file>.br` and `<file>.gz` beside every compressible file of a build, so the server (and a CDN
// that understands precompressed files) sends compressed bytes without compressing per request.
// The build runs it on both of its threads at once: the worker thread compresses the files it wrote
// (static JSON, API manifests, search shards) while the main thread compresses the rest (HTML and the
// discovery files). Each file is read, compressed and written synchronously: for the small files of a
// site, the thread pool's round trips (five per file) cost more than the work (measured on a 10,000-tool
// build: about a third more CPU), and the build's two threads already keep both cores busy.
// A file the previous build already had (hard-linked by an incremental build: same inode, or written
// again with the same bytes) takes the previous build's compressed files as links instead of being
// compressed again.
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Which part of a build a pass covers: only these top-level paths, or all but these (relative, `/`), and
 * `files` besides (relative paths; an incremental build names its re-rendered tools' files rather than
 * listing 10,000 unchanged tool folders whose copies it linked with them).
 */
export interface CompressScope {
  only?: readonly string[];
  skip?: readonly string[];
  files?: readonly string[];
}

/** The build paths the worker thread writes and compresses (build/pipeline/worker-tasks.ts). */
export const WORKER_OUTPUTS: readonly string[] = ['static', 'api', 'search'];

const under = (rel: string, prefixes: readonly string[]) => prefixes.some((p) => rel === p || rel.startsWith(`${p}/`));

/** The copies each compressible file gets. */
export const COMPRESSED_EXTENSIONS = ['.br', '.gz'] as const;

/**
 * Walks the scope one directory at a time, yielding each compressible file that still lacks its copies.
 * Copies linked with their file by an incremental build (build/pipeline/incremental.ts) show in the same
 * directory listing, so those files cost no read and no stat (counted in `present`). One directory's
 * names at a time, never the whole tree: a 100,000-tool build holds 600,000 files.
 */
function* filesToCompress(root: string, scope: CompressScope, present: { count: number }, rel = ''): Generator<string> {
  const entries = readdirSync(path.join(root, rel), { withFileTypes: true });
  const names = new Set(entries.map((e) => e.name));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (scope.skip && under(r, scope.skip)) continue;
    // `only` names top-level paths: a directory above or inside one of them is walked.
    if (scope.only && !under(r, scope.only) && !scope.only.some((p) => p.startsWith(`${r}/`))) continue;
    // A symlinked folder is not entered: the API recipe copies (build/discovery/api-recipes-static.ts),
    // gzipped already, are 124,500 files linked into every build.
    if (e.isDirectory()) yield* filesToCompress(root, scope, present, r);
    else if (e.isFile() && isCompressible(e.name)) {
      if (COMPRESSED_EXTENSIONS.every((ext) => names.has(e.name + ext))) present.count++;
      else yield path.join(root, r);
    }
  }
}

/** The named files (relative to the build) that are compressible and still lack their copies. */
function* namedFiles(root: string, files: readonly string[] = []): Generator<string> {
  for (const rel of files) {
    if (!isCompressible(rel)) continue;
    const file = path.join(root, rel);
    if (!COMPRESSED_EXTENSIONS.every((ext) => existsSync(file + ext))) yield file;
  }
}

function* inScope(root: string, scope: CompressScope, present: { count: number }): Generator<string> {
  yield* filesToCompress(root, scope, present);
  yield* namedFiles(root, scope.files);
}

/** Is this file the previous build's own, hard-linked into this one (same inode)? */
function linkedFromPrevious(file: string, prevFile: string): boolean {
  const sa = statSync(file);
  // A file this build wrote has one link; only a linked one can be the previous build's.
  if (sa.nlink < 2) return false;
  const sb = statSync(prevFile, { throwIfNoEntry: false });
  return Boolean(sb && sa.ino === sb.ino && sa.dev === sb.dev);
}

function sameBytes(file: string, data: Buffer): boolean {
  return statSync(file, { throwIfNoEntry: false })?.size === data.length && readFileSync(file).equals(data);
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
  const stats = emptyStats();
  const present = { count: 0 };
  let i = 0;
  for (const file of inScope(buildDir, scope, present)) {
    if (++i % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
    const prevFile = prevDir ? path.join(prevDir, path.relative(buildDir, file)) : null;
    if (prevFile && linkedFromPrevious(file, prevFile) && linkPrevious(file, prevFile)) {
      stats.linked++;
      continue;
    }
    const data = readFileSync(file);
    if (data.length < MIN_COMPRESS_BYTES) continue;
    // Written anew with the bytes the previous build had (most of the HTML index and API pages after a
    // change elsewhere): its copies hold what compressing would give.
    if (prevFile && sameBytes(prevFile, data) && linkPrevious(file, prevFile)) {
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
  stats.linked += present.count;
  return stats;
}
