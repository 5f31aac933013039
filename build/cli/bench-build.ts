// npm run bench:build -- --n 10000: builds a catalog of N real-package contracts from the corpus and
// prints wall time, pages per second and peak RSS. The catalog files are written first, untimed; the
// build runs in a process of its own, so the peak RSS is the build's (build/bench/measured-build.ts).
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCorpusCatalog } from '../bench/corpus.ts';
import { measureBuild } from '../bench/measured-build.ts';
import { exitOnHelp } from './help.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

export async function benchBuild(n: number) {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-build-'));
  const catalogDir = path.join(root, 'catalog');
  try {
    const written = (await writeCorpusCatalog(catalogDir, n)).length;
    const r = await measureBuild(catalogDir, path.join(root, 'dist'));
    return { n: written, secs: r.secs, pagesPerSec: r.files / r.secs, peakMb: r.peakMb, phases: r.phases };
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnHelp(`
usage: npm run bench:build [-- --n 10000]
Builds a catalog of N corpus contracts; prints wall time, pages per second, peak RSS and compression cost.
`);
  const r = await benchBuild(arg('n', 10_000));
  console.log(
    `bench:build n=${r.n}: ${r.secs.toFixed(2)} s wall, ${Math.round(r.pagesPerSec)} pages/s, peak RSS ${Math.round(r.peakMb)} MB`,
  );
  console.log(
    `phases (ms): ${Object.entries(r.phases)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}
