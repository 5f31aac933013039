// npm run loadtest [-- --seconds 60] [--soak 300] [--n 10000] [--connections 32] [--storage-url redis://…]
// Builds an N-contract catalog from the corpus in a temporary folder, starts the real server (npm start)
// on loopback, and drives a mixed load with autocannon: 80% search, 15% lookup, 5% telemetry. Prints the
// zero-error check, throughput and latency p50/p99; with --soak it runs that many seconds and reports
// heap growth between minute 1 and the last minute (sampled from /health). Exit code 1 on any error.
import type { ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build } from '../pipeline/build.ts';
import { writeCorpusCatalog } from '../bench/corpus.ts';
import { startServerProcess } from '../bench/server-process.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run loadtest [-- --seconds 60] [--soak 300] [--n 10000] [--connections 32] [--storage-url redis://...]
Mixed load (80% search, 15% lookup, 5% telemetry) against a real server over an N-contract catalog.
`);

interface CannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (r: CannonRequest) => CannonRequest;
  onResponse?: (status: number, body: string) => void;
}
interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; average: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function arg(name: string, fallback: number, max: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
  return v;
}
const storageUrl = (() => {
  const i = process.argv.indexOf('--storage-url');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

/** Deterministic choices, so two runs send the same request mix. */
function rng(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

const INTENTS = [
  'send email',
  'parse csv',
  'http client',
  'hash passwords',
  'read excel files',
  'web scraping',
  'vector database',
  'image resize',
  'date formatting',
  'json schema validation',
  'command line arguments',
  'unit testing',
  'logging',
  'pdf generation',
  'websocket server',
  'markdown parser',
  'orm database',
  'rate limiting',
  'jwt tokens',
  'yaml config',
  'color terminal output',
  'machine learning',
  'speech to text',
  'data visualization',
  'async queue',
  'file watcher',
  'compression zip',
  'uuid generator',
];

/** Trend keywords must be two or more words. */
const KEYWORDS = INTENTS.filter((k) => k.includes(' '));

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const n = arg('n', 10_000, 100_000);
  const soak = process.argv.includes('--soak') ? arg('soak', 300, 3_600) : 0;
  const seconds = soak || arg('seconds', 60, 3_600);
  const connections = arg('connections', 32, 512);
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-loadtest-'));
  const catalogDir = path.join(root, 'catalog');
  const distDir = path.join(root, 'dist');
  let server: ChildProcess | null = null;
  try {
    console.error(
      `loadtest: ${n.toLocaleString('en')} contracts, ${seconds} s, ${connections} connections${storageUrl ? ', Redis' : ''}`,
    );
    const contracts = await writeCorpusCatalog(catalogDir, n);
    const t = performance.now();
    await build({ catalogDir, distDir, baseUrl: 'http://127.0.0.1' });
    console.error(`built dist/ in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const started = await startServerProcess({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'http://127.0.0.1',
      CATALOG_DIR: catalogDir,
      DIST_DIR: distDir,
      DATA_DIR: path.join(root, 'data'),
      RATE_LIMIT_TELEMETRY_PER_MIN: '0',
      ...(storageUrl ? { STORAGE_URL: storageUrl } : {}),
    });
    server = started.child;
    const { url } = started;

    const aids = contracts.map((c) => c.identity.aid);
    const words = contracts.slice(0, 500).flatMap((c) =>
      (c.identity.task ?? '')
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 3)
        .slice(0, 2),
    );
    const next = rng(42);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] as T;
    const counts = { search: 0, lookup: 0, telemetry: 0 };
    const failures = new Map<string, number>();
    const onResponse = (kind: string) => (status: number, body: string) => {
      if (status < 300) return;
      const key = `${kind} ${status} ${body.slice(0, 120)}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    };
    const search = (): CannonRequest => ({
      method: 'GET',
      path: '/',
      onResponse: onResponse('search'),
      setupRequest: (r) => {
        counts.search++;
        const q = next() < 0.6 ? pick(INTENTS) : `${pick(words)} ${pick(words)}`;
        return { ...r, path: `/api/v1/search?q=${encodeURIComponent(q)}` };
      },
    });
    const lookup = (): CannonRequest => ({
      method: 'GET',
      path: '/',
      onResponse: onResponse('lookup'),
      setupRequest: (r) => {
        counts.lookup++;
        return { ...r, path: `/api/v1/tools/${pick(aids)}` };
      },
    });
    const telemetry = (): CannonRequest => ({
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json' },
      onResponse: onResponse('telemetry'),
      setupRequest: (r) => {
        counts.telemetry++;
        const body = JSON.stringify({
          execution_feedback: next() < 0.8 ? 200 : 500,
          trend_keyword: pick(KEYWORDS),
          validation_vote: pick(['yes', 'no', 'partial']),
        });
        return { ...r, path: `/api/v1/tools/${pick(aids)}`, body };
      },
    });
    // One cycle of 20 requests per connection: 16 search, 3 lookups, 1 telemetry (80/15/5), interleaved.
    const cycle = [...Array.from({ length: 16 }, search), ...Array.from({ length: 3 }, lookup), telemetry()];
    const requests = cycle.map((_, i) => cycle[(i * 7) % cycle.length] as CannonRequest);

    const heap: { at: number; bytes: number }[] = [];
    const t0 = Date.now();
    const sampler = setInterval(async () => {
      const h = await fetch(`${url}/health`)
        .then((r) => r.json() as Promise<{ memory?: { heap_used: number } }>)
        .catch(() => null);
      if (h?.memory) heap.push({ at: (Date.now() - t0) / 1000, bytes: h.memory.heap_used });
    }, 5_000);
    const result = await autocannon({ url, connections, duration: seconds, requests });
    clearInterval(sampler);

    const total = counts.search + counts.lookup + counts.telemetry;
    const pct = (k: number) => `${((k / Math.max(1, total)) * 100).toFixed(1)}%`;
    const ok = result.errors === 0 && result.timeouts === 0 && result.non2xx === 0;
    console.log(
      `zero-error check: ${ok ? 'PASS' : 'FAIL'} (errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`,
    );
    for (const [what, k] of [...failures].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`  ${k} x ${what}`);
    console.log(
      `requests: ${result.requests.total.toLocaleString('en')} in ${result.duration} s; mix search ${pct(counts.search)}, lookup ${pct(counts.lookup)}, telemetry ${pct(counts.telemetry)}`,
    );
    console.log(
      `throughput: ${Math.round(result.requests.average).toLocaleString('en')} req/s (${mb(result.throughput.average)}/s)`,
    );
    console.log(
      `latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, mean ${result.latency.average.toFixed(1)} ms`,
    );
    if (soak) {
      // The smallest sample in a window is the closest to the live heap after a collection.
      const low = (from: number, to: number) =>
        Math.min(...heap.filter((h) => h.at >= from && h.at <= to).map((h) => h.bytes));
      const first = low(40, 80);
      const last = low(seconds - 60, seconds);
      if (Number.isFinite(first) && Number.isFinite(last)) {
        console.log(
          `heap: minute 1 ${mb(first)}, last minute ${mb(last)}, growth ${mb(last - first)} (${(((last - first) / first) * 100).toFixed(1)}%)`,
        );
      } else console.log(`heap: too few samples (${heap.length}) for a comparison`);
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    server?.kill('SIGTERM');
    await fsp.rm(root, { recursive: true, force: true });
  }
}

await main();
