// npm run bench:build -- --n 10000: builds a catalog of N real-package contracts from the corpus and
// prints wall time, pages per second and peak RSS. The catalog files are written first, untimed.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../pipeline/build.ts';
import { writeCorpusCatalog } from '../bench/corpus.ts';
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
  const contracts = await writeCorpusCatalog(catalogDir, n);
  const t = performance.now();
  const r = await build({ catalogDir, distDir: path.join(root, 'dist'), baseUrl: 'https://catalog.example' });
  const secs = (performance.now() - t) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  await fsp.rm(root, { recursive: true, force: true });
  return { n: contracts.length, secs, pagesPerSec: r.files / secs, peakMb, phases: r.phases };
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
