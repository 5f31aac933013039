// A build folder as comparable text: every path with its content, so two builds of one catalog made in
// different ways (full, incremental) can be compared whole. The build's own time is replaced by a
// placeholder (each build stamps when it ran); compressed copies are unpacked and must equal their file.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const UNPACK: Record<string, (b: Buffer) => Buffer> = { '.br': zlib.brotliDecompressSync, '.gz': zlib.gunzipSync };

/** Paths relative to `dir` → content; `build-info.json` (timings, counts of the work done) is left out. */
export async function distTree(dir: string): Promise<Map<string, string>> {
  const info = JSON.parse(await fsp.readFile(path.join(dir, 'build-info.json'), 'utf8')) as { generated_at: string };
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const file = path.join(dir, r);
      if (e.isDirectory()) await walk(r);
      else if (e.isSymbolicLink()) out.set(r, `symlink → ${await fsp.readlink(file)}`);
      else if (r !== 'build-info.json') {
        const unpack = UNPACK[path.extname(r)];
        const bytes = await fsp.readFile(file);
        out.set(r, (unpack ? unpack(bytes) : bytes).toString('utf8').replaceAll(info.generated_at, '<generated_at>'));
      }
    }
  };
  await walk('');
  for (const [p, text] of out) {
    const plain = p.replace(/\.(br|gz)$/, '');
    if (plain !== p && out.get(plain) !== text) throw new Error(`${p} does not unpack to ${plain}`);
  }
  return out;
}

/** The paths where two trees differ (missing on one side, or different content). */
export function treeDifferences(a: Map<string, string>, b: Map<string, string>): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((p) => a.get(p) !== b.get(p)).sort();
}
