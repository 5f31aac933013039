// Writes many small build files fast and without holding them all in memory.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from '../discovery/sitemap.ts';

/**
 * Writes files synchronously, yielding to the event loop every few hundred: small-file writes through
 * libuv's thread pool are several times slower, and `files` may be a lazy iterable so 100,000 contents
 * never sit in memory at once.
 */
export async function writeFiles(root: string, files: Iterable<OutputFile>): Promise<number> {
  const made = new Set<string>();
  let count = 0;
  for (const f of files) {
    const file = path.join(root, f.path);
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, f.content);
    if (++count % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  return count;
}
