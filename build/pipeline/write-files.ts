// Writes many small build files fast and without holding them all in memory.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from '../discovery/sitemap.ts';
import { linkWithCompressed } from './incremental.ts';

/**
 * Writes files synchronously, yielding to the event loop every few hundred: small-file writes through
 * libuv's thread pool are several times slower, and `files` may be a lazy iterable so 100,000 contents
 * never sit in memory at once. With `prevDir` (an incremental build), a file the previous build holds
 * with the same bytes is linked instead (writeOrLink).
 */
export async function writeFiles(
  root: string,
  files: Iterable<OutputFile>,
  prevDir: string | null = null,
): Promise<number> {
  const made = new Set<string>();
  let count = 0;
  for (const f of files) {
    const file = path.join(root, f.path);
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeOrLink(root, f.path, f.content, prevDir);
    if (++count % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  return count;
}

/**
 * Writes `content` to `rel` under `root`, unless `prevDir` (the previous build's folder for `root`)
 * holds the same bytes there: then that file and its compressed copies are linked instead. On this
 * machine creating a file costs several times what linking or reading one does, and the copies need
 * not be made again. Nothing ever writes into an existing file, so sharing the inode is safe.
 */
export function writeOrLink(root: string, rel: string, content: string | Uint8Array, prevDir: string | null): void {
  const file = path.join(root, rel);
  if (prevDir) {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    const prevFile = path.join(prevDir, rel);
    if (statSync(prevFile, { throwIfNoEntry: false })?.size === bytes.length && readFileSync(prevFile).equals(bytes)) {
      linkWithCompressed(prevDir, root, rel);
      return;
    }
  }
  writeFileSync(file, content);
}
