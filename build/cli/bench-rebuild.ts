// Live-rebuild benchmark: a real server (HTTP on loopback, rebuilds on its worker thread) over a catalog of
// N corpus contracts in a temp dir. Measures, for a new contract sent to POST /api/v1/ingest:
//   api    — from sending the write to the API answering the contract (target ≤ 1 s)
//   static — from sending the write to every static file showing it: tool page, static JSON, an index
//            page, sitemap, llms.txt, build-info count (target ≤ 3 s)
// and a burst of 100 writes spread over 10 s (target: all land, final site holds all 100).
// `node build/cli/bench-rebuild.ts [--n 10000] [--singles 5]` prints medians; `benchRebuild(n)` returns them.
import { existsSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../api/server.ts';
import { build } from '../pipeline/build.ts';
import { loadConfig } from '../config.ts';
import type { ToolContract } from '../model/contract.ts';
import { contractFromPackage, writeCorpusCatalog } from '../bench/corpus.ts';
import { perToolFiles } from '../pipeline/incremental.ts';
import { median } from '../bench/stats.ts';
import { exitOnHelp } from './help.ts';

const SECRET = 'bench-secret';
const BASE_URL = 'https://bench.example';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newContract(i: number, tag: string): ToolContract {
  const aid = `npm-bench-${tag}-${i}-v1`;
  return {
    ...contractFromPackage(
      {
        registry: 'npm',
        name: `bench-${tag}-${i}`,
        version: '1.0.0',
        summary: `Benchmark tool ${tag} ${i}`,
        rank: 100 + i,
      },
      aid,
    ),
    record: { verified: true, reliability_calculated_at: null },
  };
}

/** Does every static file of the current dist/ show this aid? Read from disk: what the server serves. */
async function staticShows(distDir: string, aid: string, count: number): Promise<boolean> {
  const read = (p: string) => fsp.readFile(path.join(distDir, p), 'utf8').catch(() => '');
  const info = await read('build-info.json');
  if (!info || (JSON.parse(info) as { tools_count: number }).tools_count < count) return false;
  const own = perToolFiles(aid);
  if (!existsSync(path.join(distDir, own.html)) || !existsSync(path.join(distDir, own.json))) return false;
  const href = `/tools/${aid}/`;
  // llms.txt lists MCP servers itself and links one file per category for the other tools.
  const llms = [
    await read('llms.txt'),
    ...(await Promise.all(
      (await fsp.readdir(path.join(distDir, 'llms')).catch(() => [] as string[])).map((n) => read(`llms/${n}`)),
    )),
  ];
  if (!(await read('sitemap.xml')).includes(href) || !llms.some((t) => t.includes(href))) return false;
  const pages = [
    'index.html',
    ...(await fsp.readdir(path.join(distDir, 'page')).catch(() => [] as string[])).map((n) => `page/${n}/index.html`),
  ];
  for (const p of pages) if ((await read(p)).includes(`href="${href}"`)) return true;
  return false;
}

/**
 * Milliseconds from `t0` to the swap that made every static file show `aid`: dist/ is a symlink, so the
 * moment it points at a new build is cheap to catch; that build's files are then checked (they never change).
 */
async function swapShowing(
  distDir: string,
  aid: string,
  count: number,
  t0: number,
  timeoutMs: number,
): Promise<number> {
  let seen = await fsp.readlink(distDir).catch(() => '');
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    const now = await fsp.readlink(distDir).catch(() => seen);
    if (now !== seen) {
      const at = performance.now() - t0;
      seen = now;
      if (await staticShows(path.resolve(path.dirname(distDir), now), aid, count)) return at;
    }
    await sleep(5);
  }
  return Number.POSITIVE_INFINITY;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}

export async function benchRebuild(
  n = 10_000,
  options: { singles?: number; burst?: number; burstMs?: number; log?: (l: string) => void } = {},
) {
  const { singles = 5, burst = 100, burstMs = 10_000, log = () => {} } = options;
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-rebuild-'));
  const catalogDir = path.join(root, 'catalog');
  const distDir = path.join(root, 'dist');
  const contracts = await writeCorpusCatalog(catalogDir, n);
  let t = performance.now();
  await build({ catalogDir, distDir, baseUrl: BASE_URL });
  const initialBuildMs = performance.now() - t;
  log(`initial full build of ${contracts.length}: ${(initialBuildMs / 1000).toFixed(1)} s`);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL,
    CATALOG_DIR: catalogDir,
    DIST_DIR: distDir,
    DATA_DIR: path.join(root, 'data'),
    ADMIN_SECRET: SECRET,
  });
  const server = await startServer(config, { telemetryRatePerMin: 0 });
  const ingest = (c: ToolContract) =>
    fetch(`${server.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { 'x-admin-secret': SECRET, 'content-type': 'application/json' },
      body: JSON.stringify(c),
    });
  let count = contracts.length;
  try {
    const apiMs: number[] = [];
    const staticMs: number[] = [];
    for (let i = 0; i < singles; i++) {
      await server.ctx.rebuild.idle();
      const c = newContract(i, 'single');
      t = performance.now();
      const res = await ingest(c);
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      await until(async () => (await fetch(`${server.url}/api/v1/tools/${c.identity.aid}`)).status === 200, 5_000, 5);
      apiMs.push(performance.now() - t);
      count++;
      staticMs.push(await swapShowing(distDir, c.identity.aid, count, t, 60_000));
      log(
        `single ${i}: api ${apiMs.at(-1)?.toFixed(0)} ms, static ${staticMs.at(-1)?.toFixed(0)} ms; build ${JSON.stringify(server.ctx.rebuild.status().last)}`,
      );
    }
    await server.ctx.rebuild.idle();
    const buildsBefore = server.ctx.rebuild.status().builds;
    const writes: Promise<{ status: number; ms: number }>[] = [];
    const burstContracts = Array.from({ length: burst }, (_, i) => newContract(i, 'burst'));
    const start = performance.now();
    for (let i = 0; i < burst; i++) {
      await sleep(Math.max(0, start + (i * burstMs) / burst - performance.now()));
      const w0 = performance.now();
      writes.push(
        ingest(burstContracts[i] as ToolContract).then(async (r) => {
          await r.arrayBuffer();
          return { status: r.status, ms: performance.now() - w0 };
        }),
      );
    }
    const results = await Promise.all(writes);
    const lastWrite = performance.now();
    count += burst;
    const last = burstContracts.at(-1) as ToolContract;
    await until(() => staticShows(distDir, last.identity.aid, count), 120_000, 50);
    await server.ctx.rebuild.idle();
    const settleMs = performance.now() - lastWrite;
    const sitemap = await fsp.readFile(path.join(distDir, 'sitemap.xml'), 'utf8');
    const present = burstContracts.filter(
      (c) =>
        sitemap.includes(`/tools/${c.identity.aid}/`) &&
        existsSync(path.join(distDir, perToolFiles(c.identity.aid).html)),
    ).length;
    const status = server.ctx.rebuild.status();
    return {
      n: contracts.length,
      initialBuildMs,
      single: { apiMs, staticMs, apiMedianMs: median(apiMs), staticMedianMs: median(staticMs) },
      burst: {
        writes: burst,
        ok: results.filter((r) => r.status === 200).length,
        writeMedianMs: median(results.map((r) => r.ms)),
        writeMaxMs: Math.max(...results.map((r) => r.ms)),
        builds: status.builds - buildsBefore,
        settleAfterLastWriteMs: settleMs,
        presentInSite: present,
        lastBuildMs: status.last?.ms ?? NaN,
      },
    };
  } finally {
    await server.close();
    await fsp.rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnHelp(`
usage: node build/cli/bench-rebuild.ts [--n 10000] [--singles 5]
Live-rebuild benchmark: time until a write is visible in the API and in every static file.
`);
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const r = await benchRebuild(arg('n', 10_000), { singles: arg('singles', 5), log: (l) => console.error(l) });
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`bench:rebuild n=${r.n} (initial full build ${s(r.initialBuildMs)})`);
  console.log(
    `  one write: visible in the API after ${s(r.single.apiMedianMs)} (median, target ≤ 1 s), in every static file after ${s(r.single.staticMedianMs)} (median, target ≤ 3 s)`,
  );
  console.log(
    `  burst: ${r.burst.ok}/${r.burst.writes} writes accepted over 10 s (median answer ${r.burst.writeMedianMs.toFixed(0)} ms, max ${r.burst.writeMaxMs.toFixed(0)} ms), ${r.burst.builds} build(s), site complete ${s(r.burst.settleAfterLastWriteMs)} after the last write, ${r.burst.presentInSite}/${r.burst.writes} in the final site`,
  );
}
