// Scale-out of admin writes: two real API processes share one redis-server (persistence off), one catalog
// folder and one dist/. Writes live in the Redis overlay: the other process serves them within a second,
// the catalog files stay untouched until `npm run export`, exactly one process rebuilds per write, and the
// rebuild lock of a SIGKILLed holder expires so the survivor builds.
import { createHash } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlayNames } from '../../build/catalog/storage/redis-overlay.ts';
import { parseOperationsFile } from '../../build/apis/recipe-schema.ts';
import { sampleManifest, sampleRecipes } from '../helpers/api-manifests.ts';
import {
  type ApiProcess,
  freePort,
  prepareSite,
  type RedisProcess,
  type SiteRoot,
  startApiProcess,
  startRedis,
} from '../helpers/redis.ts';
import { runTs } from '../helpers/run-ts.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';

const SECRET = 'overlay-test-secret';
const TTL = 1_500;
const NAMES = overlayNames();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 10_000,
  every = 20,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(every);
  }
}

async function digest(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fsp.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = createHash('sha256')
      .update(await fsp.readFile(p))
      .digest('hex');
  }
  return out;
}

describe('catalog overlay in Redis, two processes, one dist/', () => {
  let redis: RedisProcess;
  let site: SiteRoot;
  let client: Redis;
  const servers: ApiProcess[] = [];
  let filesBefore: Record<string, string>;
  const env = (n: number) =>
    site.env({
      STORAGE_URL: redis.url,
      DATA_DIR: site.dataDir(n),
      ADMIN_SECRET: SECRET,
      REBUILD_LOCK_TTL_MS: String(TTL),
    });
  const call = (s: ApiProcess, method: string, p: string, body?: unknown) =>
    fetch(`${s.url}${p}`, {
      method,
      headers: { 'x-admin-secret': SECRET, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const ingest = async (s: ApiProcess, aid: string, task: string) => {
    const res = await call(s, 'POST', '/api/v1/ingest', sampleContract(aid, { identity: { task } }));
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const status = async (s: ApiProcess) =>
    (await (await call(s, 'GET', '/admin/rebuild')).json()) as { running: boolean; queued: number; builds: number };
  const builtPage = (aid: string) => existsSync(path.join(site.distDir, 'tools', aid, 'index.html'));
  /** No build running or due anywhere: the pending hash is empty and both schedulers are quiet. */
  const settled = () =>
    until('rebuilds settle', async () => {
      if ((await client.hlen(NAMES.pending)) > 0) return false;
      const all = await Promise.all(servers.map(status));
      return all.every((s) => !s.running && s.queued === 0) && all;
    });

  beforeAll(async () => {
    redis = await startRedis();
    site = await prepareSite();
    filesBefore = await digest(site.catalogDir);
    for (const n of [0, 1]) servers.push(await startApiProcess(env(n)));
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    await site?.cleanup();
  });

  it('serves an ingest made on A from B at once (lookup and search); the catalog files are untouched', async () => {
    const [a, b] = servers as [ApiProcess, ApiProcess];
    await ingest(a, 'npm-overlay-widget-v1', 'convert overlay widgets into gizmos');
    // B learns of the write by Redis pub/sub, not by polling: a few seconds here only absorb a loaded
    // machine (the ≤ 1 s target is measured by the rebuild benchmark, not asserted by a test).
    await until(
      'B serves it',
      async () => (await fetch(`${b.url}/api/v1/tools/npm-overlay-widget-v1`)).status === 200,
      5_000,
      5,
    );
    const search = await (await fetch(`${b.url}/api/v1/tools?q=overlay+widgets+gizmos`)).json();
    expect(search.results[0].identity.aid).toBe('npm-overlay-widget-v1');
    // An existing contract changed on B is served changed by A; an API manifest written on A is found on B.
    const axios = JSON.parse(await fsp.readFile(path.join(site.catalogDir, 'tools/npm-axios-v1.json'), 'utf8'));
    expect(
      (await call(b, 'POST', '/api/v1/ingest', { ...axios, identity: { ...axios.identity, task: 'changed on B' } }))
        .status,
    ).toBe(200);
    const manifest = sampleManifest('overlay_mail_api', { tags: ['email', 'overlay'] });
    // With its recipes: kept in Redis beside the manifest, read by B through the same overlay.
    expect((await call(a, 'POST', '/admin/apis/ingest', { ...manifest, operations: sampleRecipes() })).status).toBe(
      200,
    );
    await until(
      'A and B agree',
      async () => {
        const tool = await (await fetch(`${a.url}/api/v1/tools/npm-axios-v1`)).json();
        const api = await fetch(`${b.url}/api/v1/services/overlay_mail_api/mai-api.json`);
        const recipe = await fetch(`${b.url}/api/v1/services/overlay_mail_api/operations/get_message`);
        return tool.identity.task === 'changed on B' && api.status === 200 && recipe.status === 200;
      },
      1_000,
      5,
    );
    expect(await (await fetch(`${b.url}/api/v1/services/overlay_mail_api/operations/get_message`)).json()).toEqual(
      sampleRecipes()[1],
    );
    expect(await digest(site.catalogDir)).toEqual(filesBefore);
    expect(await client.exists(`${NAMES.base}:tools:npm-overlay-widget-v1.json`)).toBe(1);
  });

  it('catches up after its subscriber lost the connection (a notice missed meanwhile is not missed for good)', async () => {
    const aid = 'npm-overlay-missed-v1';
    // A record that arrived while nobody listened: in Redis, its notice gone.
    await client.set(
      `${NAMES.base}:tools:${aid}.json`,
      JSON.stringify(sampleContract(aid, { identity: { task: 'announced to nobody' } }), null, 2),
    );
    expect((await fetch(`${servers[1]?.url}/api/v1/tools/${aid}`)).status).toBe(404);
    await client.client('KILL', 'TYPE', 'pubsub');
    for (const s of servers)
      await until(
        'served after the reconnect',
        async () => (await fetch(`${s.url}/api/v1/tools/${aid}`)).status === 200,
        5_000,
      );
  });

  it('rebuilds the shared dist/ once per write, on exactly one of the two processes', async () => {
    await settled();
    const before = await Promise.all(servers.map(status));
    await ingest(servers[1] as ApiProcess, 'npm-overlay-once-v1', 'built exactly once');
    await until('the page is in dist/', async () => builtPage('npm-overlay-once-v1'));
    // Past the skipped process's look-again (one lock TTL), nothing more is built.
    await sleep(TTL + 500);
    const after = await settled();
    expect(after.map((s, i) => s.builds - (before[i]?.builds ?? 0)).sort()).toEqual([0, 1]);
    const info = JSON.parse(await fsp.readFile(path.join(site.distDir, 'build-info.json'), 'utf8'));
    expect(info).toMatchObject({ incremental: true, apis_count: 1 });
    // The build read the recipes kept in Redis: their static copies are in the shared dist/.
    const recipe = path.join(site.distDir, 'api/v1/services/overlay_mail_api/operations/get_message.json.gz');
    expect(JSON.parse(gunzipSync(await fsp.readFile(recipe)).toString())).toEqual(sampleRecipes()[1]);
  });

  it('npm run export writes the overlay as valid files (tombstones delete), --clear empties Redis; B serves the same', async () => {
    await client.set(`${NAMES.base}:tools:npm-chalk-v1.json`, '__OVERLAY_REMOVED__');
    const exportEnv = { STORAGE_URL: redis.url, CATALOG_DIR: site.catalogDir };
    const first = await runTs('build/cli/export.ts', [], { env: exportEnv });
    expect(first.code, first.stderr).toBe(0);
    for (const f of [
      'tools/npm-overlay-widget-v1.json',
      'tools/npm-overlay-once-v1.json',
      'tools/npm-axios-v1.json',
      'apis/overlay_mail_api.json',
    ]) {
      expect(first.stdout).toContain(`wrote ${path.relative(process.cwd(), site.catalogDir)}/${f}`);
    }
    expect(first.stdout).toMatch(/deleted .*tools\/npm-chalk-v1\.json/);
    // The recipes come back as the gzipped file `npm run validate` checks against the manifest.
    expect(first.stdout).toMatch(/wrote .*apis\/operations\/overlay_mail_api\.json\.gz/);
    expect(
      parseOperationsFile(await fsp.readFile(path.join(site.catalogDir, 'apis/operations/overlay_mail_api.json.gz'))),
    ).toEqual({ service_name: 'overlay_mail_api', operations: sampleRecipes() });
    expect(existsSync(path.join(site.catalogDir, 'tools/npm-chalk-v1.json'))).toBe(false);
    const valid = await runTs('build/cli/validate.ts', [], { env: { CATALOG_DIR: site.catalogDir } });
    expect(valid.code, valid.stdout + valid.stderr).toBe(0);
    expect(
      JSON.parse(await fsp.readFile(path.join(site.catalogDir, 'tools/npm-overlay-widget-v1.json'), 'utf8')).identity
        .task,
    ).toBe('convert overlay widgets into gizmos');

    const second = await runTs('build/cli/export.ts', ['--clear'], { env: exportEnv });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/0 written, 0 deleted, 7 unchanged, 0 invalid; cleared 7 key\(s\)/);
    expect(await client.keys(`${NAMES.base}:*`)).toEqual([]);
    // The files now hold what Redis held: the served contract is the same.
    const served = await (await fetch(`${servers[1]?.url}/api/v1/tools/npm-overlay-widget-v1`)).json();
    expect(served.identity.task).toBe('convert overlay widgets into gizmos');
  });

  it('loses no change when A and B read-modify-write the same contracts at the same instant (shared write lock)', async () => {
    const [a, b] = servers as [ApiProcess, ApiProcess];
    const aids = Array.from({ length: 24 }, (_, i) => `npm-race-${i}-v1`);
    for (const aid of aids) await ingest(a, aid, `race subject ${aid}`);
    await until('B serves them all', async () => (await fetch(`${b.url}/api/v1/tools/${aids.at(-1)}`)).status === 200);
    // One command fix per tool waits for review (execute_cmd is missing, so a micro_translation answers it).
    for (const aid of aids) {
      const r = await fetch(`${b.url}/api/v1/tools/${aid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          execution_feedback: 200,
          trend_keyword: 'race test',
          micro_translation: `${aid} --run`,
        }),
      });
      expect(r.status).toBe(200);
    }
    const queue = (await (await call(b, 'GET', '/admin/contributions')).json()) as {
      contributions: { id: string; aid: string }[];
    };
    const tickets = queue.contributions.filter((t) => aids.includes(t.aid));
    expect(tickets).toHaveLength(aids.length);
    // A rewrites every score three times while B applies the fixes: both change the same records at once.
    const scores = [0.31, 0.32, 0.33];
    const trust = (async () => {
      for (const score of scores) {
        const r = await call(a, 'POST', '/admin/update-trust', {
          scores: aids.map((aid) => ({ aid, reliability_score: score })),
        });
        expect(r.status, await r.clone().text()).toBe(200);
      }
    })();
    const fixes = Promise.all(
      tickets.map(async (t) => {
        const r = await call(b, 'POST', `/admin/contributions/${t.id}/accept`);
        expect(r.status, await r.clone().text()).toBe(200);
      }),
    );
    await Promise.all([trust, fixes]);
    for (const aid of aids) {
      const stored = JSON.parse((await client.get(`${NAMES.base}:tools:${aid}.json`)) ?? 'null');
      expect({ aid, score: stored.trust.reliability_score, execute_cmd: stored.action.execute_cmd }).toEqual({
        aid,
        score: 0.33,
        execute_cmd: `${aid} --run`,
      });
    }
    // Both processes end up serving what Redis holds.
    for (const s of servers) {
      await until('served as stored', async () => {
        const c = await (await fetch(`${s.url}/api/v1/tools/${aids[0]}`)).json();
        return c.trust.reliability_score === 0.33;
      });
    }
  });

  it('lets the rebuild lock of a SIGKILLed holder expire; the survivor then builds', async () => {
    await settled();
    let caught: { holder: number; token: string; aid: string } | null = null;
    for (let attempt = 0; attempt < 4 && !caught; attempt++) {
      const aid = `npm-overlay-kill${attempt}-v1`;
      await ingest(servers[0] as ApiProcess, aid, 'written just before the builder dies');
      const token = await until('the lock is taken', () => client.get(NAMES.lock), 10_000, 2);
      const holder = servers.findIndex((s) => s.pid === Number(token.split(':').at(-2)));
      expect(holder).toBeGreaterThanOrEqual(0);
      await servers[holder]?.kill9();
      if ((await client.get(NAMES.lock)) === token) caught = { holder, token, aid };
      else servers[holder] = await startApiProcess(env(holder)); // it finished first: try again
    }
    if (!caught) throw new Error('never killed a holder while it held the lock');
    const survivor = servers[1 - caught.holder] as ApiProcess;
    const ttl = await client.pttl(NAMES.lock);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(TTL);
    await until('the lock expires', async () => (await client.get(NAMES.lock)) !== caught.token, TTL + 1_000);
    // The write the dead holder was building is still pending; the survivor builds it without a new write.
    await until(
      'the survivor built it',
      async () => builtPage(caught.aid) && (await client.hlen(NAMES.pending)) === 0,
      15_000,
    );
    expect((await status(survivor)).builds).toBeGreaterThanOrEqual(1);
    await ingest(survivor, 'npm-overlay-after-v1', 'written after the kill');
    await until('and the next one', async () => builtPage('npm-overlay-after-v1'), 10_000);
  });
});

describe('npm start with an unreachable STORAGE_URL', () => {
  it('exits non-zero with one line naming the URL without its password, and no stack trace', async () => {
    const site = await prepareSite();
    try {
      const port = await freePort();
      const r = await runTs('api/main.ts', [], {
        env: site.env({ PORT: '0', STORAGE_URL: `redis://:hunter2@127.0.0.1:${port}/0` }),
      });
      expect(r.code).toBe(1);
      const out = r.stdout + r.stderr;
      expect(out).toContain(
        `not started: cannot reach Redis at redis://:***@127.0.0.1:${port}/0: connect ECONNREFUSED`,
      );
      expect(out).not.toContain('hunter2');
      expect(out).not.toMatch(/^\s+at /m);
    } finally {
      await site.cleanup();
    }
  });
});
