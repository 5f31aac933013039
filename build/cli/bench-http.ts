// HTTP search throughput against the real server in its own process, driven by autocannon (32
// connections, queries cycling through the intent sets), and the static search page measured in
// headless Chromium: bytes fetched for a first query (gzip, as a CDN serves them) and time to results.
//   npm run bench:http -- --n 10000 [--seconds 10] [--runs 3]
// The machine is noisy: several runs against one warmed server, the median run reported with all of them.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { corpusContracts } from '../corpus.ts';
import { writeFiles } from '../write-files.ts';
import { startServerProcess } from './server-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HttpFigures { n: number; rps: number; p50: number; p99: number; errors: number; non2xx: number; /** req/s of every run */ runs: number[] }

export function intentQueries(): string[] {
  const load = (f: string) => (JSON.parse(readFileSync(path.join(root, 'test/fixtures/search', f), 'utf8')).queries as { query: string }[]).map((q) => q.query);
  return [...load('dev-queries.json'), ...load('heldout-queries.json')];
}

/** Search throughput over HTTP at 32 connections against a catalog of n corpus contracts (median run). */
export async function benchHttpSearch(n: number, seconds = 10, runs = 3): Promise<HttpFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-http-'));
  const contracts = await corpusContracts(n);
  await writeFiles(path.join(dir, 'catalog'), contracts.map((c) => ({ path: `tools/${c.identity.aid}.json`, content: JSON.stringify(c) })));
  const { url, child } = await startServerProcess(
    { PORT: '0', RATE_LIMIT_TELEMETRY_PER_MIN: '0', CATALOG_DIR: path.join(dir, 'catalog'), DIST_DIR: path.join(dir, 'dist'), DATA_DIR: path.join(dir, 'data') },
    ['--no-build'],
  );
  try {
    const paths = intentQueries().map((q) => `/api/v1/tools?q=${encodeURIComponent(q)}`);
    let i = 0;
    const run = (duration: number) => autocannon({
      url, connections: 32, duration,
      requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }) }],
    });
    await run(2); // warm-up: JIT and caches
    const results = [];
    for (let k = 0; k < runs; k++) results.push(await run(seconds));
    const sorted = [...results].sort((a, b) => a.requests.average - b.requests.average);
    const r = sorted[Math.floor((sorted.length - 1) / 2)] as (typeof results)[number];
    return {
      n, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99,
      errors: results.reduce((t, x) => t + x.errors + x.timeouts, 0), non2xx: results.reduce((t, x) => t + x.non2xx, 0),
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

export interface BrowserFigures { queries: number; medianKb: number; maxKb: number; medianMs: number; maxMs: number }

/**
 * Serves a static search folder (manifest, shards, search.js) with the page and measures, per query in
 * a fresh browser context, the gzip bytes fetched after typing and the time until results show.
 */
export async function benchStaticSearchInBrowser(staticDir: string, queries: string[]): Promise<BrowserFigures> {
  const { launchChromium } = await import('../../test/helpers/browser.ts');
  cpSync(path.join(root, 'site/search/index.html'), path.join(staticDir, 'index.html'));
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent((req.url ?? '/').split('?')[0] as string).replace(/^\/search\//, '').replace(/^\/$/, '') || 'index.html';
    try {
      const body = readFileSync(path.join(staticDir, path.normalize(rel).replace(/^(\.\.[/\\])+/, '')));
      res.writeHead(200, { 'content-type': rel.endsWith('.html') ? 'text/html' : rel.endsWith('.js') ? 'text/javascript' : 'application/json' });
      res.end(body);
    } catch { res.writeHead(404).end(); }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search/`;
  const browser = await launchChromium();
  const kbs: number[] = [];
  const times: number[] = [];
  try {
    for (const q of queries) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(base);
      await page.waitForLoadState('networkidle');
      let bytes = 0;
      page.on('response', async (r) => { bytes += gzipSync(await r.body().catch(() => Buffer.alloc(0))).length; });
      const t = performance.now();
      await page.fill('#q', q);
      await page.waitForFunction(() => /result/.test(document.getElementById('search-status')?.textContent ?? ''), undefined, { timeout: 10_000 });
      times.push(performance.now() - t);
      await page.waitForLoadState('networkidle');
      kbs.push(bytes / 1024);
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return { queries: queries.length, medianKb: median(kbs), maxKb: Math.max(...kbs), medianMs: median(times), maxMs: Math.max(...times) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const i = process.argv.indexOf('--n');
  const n = i >= 0 ? Number(process.argv[i + 1]) : 10_000;
  const s = process.argv.indexOf('--seconds');
  const k = process.argv.indexOf('--runs');
  console.log(httpLine(await benchHttpSearch(n, s >= 0 ? Number(process.argv[s + 1]) : 10, k >= 0 ? Number(process.argv[k + 1]) : 3)));
}
