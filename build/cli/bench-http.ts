// HTTP search throughput against the real server in its own process, driven by autocannon (32
// connections, queries cycling through the intent sets).
//   npm run bench:http -- --n 10000 [--seconds 10] [--runs 3]
// The machine is noisy: several runs against one warmed server, the median run reported with all of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeCorpusCatalog } from '../bench/corpus.ts';
import { loadQuerySet } from '../search/eval.ts';
import { median } from '../bench/stats.ts';
import { startServerProcess } from '../bench/server-process.ts';
import { exitOnHelp } from './help.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HttpFigures {
  n: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number /** req/s of every run */;
  runs: number[];
}

export function intentQueries(): string[] {
  const load = (f: string) => loadQuerySet(path.join(root, 'test/fixtures/search', f)).queries.map((q) => q.query);
  return [...load('dev-queries.json'), ...load('heldout-queries.json')];
}

/** Search throughput over HTTP at 32 connections against a catalog of n corpus contracts (median run). */
export async function benchHttpSearch(n: number, seconds = 10, runs = 3): Promise<HttpFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-http-'));
  await writeCorpusCatalog(path.join(dir, 'catalog'), n);
  const { url, child } = await startServerProcess(
    {
      PORT: '0',
      RATE_LIMIT_TELEMETRY_PER_MIN: '0',
      CATALOG_DIR: path.join(dir, 'catalog'),
      DIST_DIR: path.join(dir, 'dist'),
      DATA_DIR: path.join(dir, 'data'),
    },
    ['--no-build'],
  );
  try {
    const paths = intentQueries().map((q) => `/api/v1/tools?q=${encodeURIComponent(q)}`);
    let i = 0;
    const run = (duration: number) =>
      autocannon({
        // As agents and browsers ask: answers over 1 KB come back compressed, so the cost is in the figure.
        url,
        connections: 32,
        duration,
        headers: { 'accept-encoding': 'gzip, br' },
        requests: [
          {
            method: 'GET',
            setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }),
          },
        ],
      });
    await run(2); // warm-up: JIT and caches
    const results = [];
    for (let k = 0; k < runs; k++) results.push(await run(seconds));
    const rps = median(results.map((x) => x.requests.average));
    const r = results.find((x) => x.requests.average === rps) as (typeof results)[number];
    return {
      n,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: results.reduce((t, x) => t + x.errors + x.timeouts, 0),
      non2xx: results.reduce((t, x) => t + x.non2xx, 0),
      runs: results.map((x) => x.requests.average),
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line for the figures, as every bench prints them. */
export function httpLine(r: HttpFigures): string {
  const target = r.n >= 100_000 ? 1500 : 4000;
  return `http search n=${r.n}: ${Math.round(r.rps)} req/s median of ${r.runs.length} runs (${r.runs.map(Math.round).join(' / ')}; ${(r.rps / target).toFixed(2)}× of ${target}), p50 ${r.p50} ms, p99 ${r.p99} ms (target ≤ 50 ms), errors ${r.errors}, non-2xx ${r.non2xx}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  exitOnHelp(`
usage: npm run bench:http [-- --n 10000] [--seconds 10] [--runs 3]
HTTP search throughput (autocannon, 32 connections) against the real server; the median run is reported.
`);
  const i = process.argv.indexOf('--n');
  const n = i >= 0 ? Number(process.argv[i + 1]) : 10_000;
  const s = process.argv.indexOf('--seconds');
  const k = process.argv.indexOf('--runs');
  console.log(
    httpLine(
      await benchHttpSearch(n, s >= 0 ? Number(process.argv[s + 1]) : 10, k >= 0 ? Number(process.argv[k + 1]) : 3),
    ),
  );
}
