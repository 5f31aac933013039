// Crash safety: kill -9 a real server process (npm start) under telemetry load and start it again. Every
// POST answered 200 before the kill is counted after the restart, nothing is counted that was never
// sent, and the catalog and dist/ are intact. File backend: fdatasync before 200. Redis backend: AOF with
// `appendfsync always`, and Redis is killed with the API server.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../build/catalog/catalog-store.ts';
import { BUILD_INFO } from '../../build/pipeline/dist-swap.ts';
import { loadSnapshot } from '../../build/catalog/snapshot.ts';
import {
  type ApiProcess,
  prepareSite,
  type RedisProcess,
  type SiteRoot,
  startApiProcess,
  startRedis,
} from '../helpers/redis.ts';
import { FIXTURES } from '../helpers/server.ts';

const TOOLS = ['npm-axios-v1', 'npm-chalk-v1', 'pypi-requests-v1'];
const CONCURRENCY = 16;

interface LoadResult {
  sent: Map<string, number>;
  acked: Map<string, number>;
}

const MIN_ACKED = 100;

/**
 * POSTs telemetry from CONCURRENCY loops, kills mid-load once MIN_ACKED reports were answered (and at
 * least `runMs` passed), and counts what was sent and what got a 200.
 */
async function loadThenKill(url: string, runMs: number, kill: () => Promise<void>): Promise<LoadResult> {
  const sent = new Map(TOOLS.map((t) => [t, 0]));
  const acked = new Map(TOOLS.map((t) => [t, 0]));
  let stop = false;
  const loop = async (w: number) => {
    for (let i = w; !stop; i += CONCURRENCY) {
      const aid = TOOLS[i % TOOLS.length] as string;
      sent.set(aid, (sent.get(aid) ?? 0) + 1);
      try {
        const res = await fetch(`${url}/api/v1/tools/${aid}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ execution_feedback: 200, trend_keyword: 'crash test load' }),
        });
        // The status line is the answer: a 200 received is a promise the count survives.
        if (res.status === 200) acked.set(aid, (acked.get(aid) ?? 0) + 1);
        await res.arrayBuffer().catch(() => undefined);
      } catch {
        // Connection reset or refused by the kill: not acknowledged, may or may not be counted.
      }
    }
  };
  const loops = Array.from({ length: CONCURRENCY }, (_, w) => loop(w));
  const started = Date.now();
  const ackedTotal = () => [...acked.values()].reduce((a, b) => a + b, 0);
  while (Date.now() - started < runMs || (ackedTotal() < MIN_ACKED && Date.now() - started < 30_000))
    await new Promise((r) => setTimeout(r, 50));
  await kill();
  stop = true;
  await Promise.all(loops);
  return { sent, acked };
}

async function expectCountsKept(server: ApiProcess, { sent, acked }: LoadResult) {
  let total = 0;
  for (const aid of TOOLS) {
    const res = await fetch(`${server.url}/api/v1/tools/${aid}`);
    const requests = (await res.json()).trust.telemetry.requests as number;
    expect(requests).toBeGreaterThanOrEqual(acked.get(aid) ?? 0);
    expect(requests).toBeLessThanOrEqual(sent.get(aid) ?? 0);
    total += acked.get(aid) ?? 0;
  }
  // The load really ran before the kill.
  expect(total).toBeGreaterThanOrEqual(MIN_ACKED);
}

async function expectSiteIntact(site: SiteRoot, server: ApiProcess) {
  for (const dir of ['tools']) {
    for (const f of await fsp.readdir(path.join(FIXTURES, dir))) {
      expect(await fsp.readFile(path.join(site.catalogDir, dir, f), 'utf8')).toBe(
        await fsp.readFile(path.join(FIXTURES, dir, f), 'utf8'),
      );
    }
  }
  const snapshot = await loadSnapshot(createCatalogStore({ dir: site.catalogDir }));
  expect(snapshot.errors).toEqual([]);
  expect(snapshot.tools.length).toBeGreaterThan(0);
  expect(JSON.parse(await fsp.readFile(path.join(site.distDir, BUILD_INFO), 'utf8')).tools_count).toBe(
    snapshot.tools.length,
  );
  for (const p of ['/', '/tools/npm-axios-v1/', '/static/v1/tools/npm-axios-v1.json'])
    expect((await fetch(`${server.url}${p}`)).status).toBe(200);
}

describe('kill -9 under telemetry load', () => {
  let site: SiteRoot;
  const started: ApiProcess[] = [];
  const start = async (env: NodeJS.ProcessEnv) => {
    const s = await startApiProcess(env);
    started.push(s);
    return s;
  };
  beforeAll(async () => {
    site = await prepareSite();
  });
  afterAll(async () => {
    for (const s of started) await s.kill9();
    await site?.cleanup();
  });

  it('file backend: every POST answered 200 before the kill is counted after the restart', async () => {
    const env = site.env({ DATA_DIR: site.dataDir(0), RATE_LIMIT_TELEMETRY_PER_MIN: '0' });
    const first = await start(env);
    const load = await loadThenKill(first.url, 1000, () => first.kill9());
    const second = await start(env);
    await expectCountsKept(second, load);
    await expectSiteIntact(site, second);
    await second.stop();
  }, 240_000); // process kills and restarts: generous on a loaded machine

  describe('Redis backend', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await startRedis({ args: ['--appendonly', 'yes', '--appendfsync', 'always'] });
    });
    afterAll(() => redis?.stop());

    it('with appendfsync always: every 200 is counted after both the API server and Redis are killed', async () => {
      const env = () =>
        site.env({ DATA_DIR: site.dataDir(1), RATE_LIMIT_TELEMETRY_PER_MIN: '0', STORAGE_URL: redis.url });
      const first = await start(env());
      const load = await loadThenKill(first.url, 1000, () =>
        Promise.all([first.kill9(), redis.kill9()]).then(() => undefined),
      );
      await redis.restart();
      const second = await start(env());
      await expectCountsKept(second, load);
      await expectSiteIntact(site, second);
      await second.stop();
    }, 240_000); // process kills and restarts: generous on a loaded machine
  });
});
