// Scale-out on Redis: two API processes on two ports share one real redis-server. 10,000 concurrent
// telemetry POSTs split across both leave exact counters; lookups, suggestions and rate limits are
// shared; the Redis rate limiter and review queue keep their guarantees across clients.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisRateLimiter } from '../../api/state/rate-limit/redis.ts';
import { redisReviewQueue } from '../../api/state/review-queue/redis.ts';
import { createRuntimeState } from '../../api/state/runtime-state.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { redisTelemetryStore } from '../../api/state/telemetry/redis.ts';
import { loadConfig } from '../../build/config.ts';
import {
  type ApiProcess,
  pool,
  prepareSite,
  type RedisProcess,
  type SiteRoot,
  startApiProcess,
  startRedis,
} from '../helpers/redis.ts';

const TOOLS = ['npm-axios-v1', 'npm-chalk-v1', 'pypi-requests-v1', 'npm-nodemailer-v1'];
const N = 10_000;
const feedbackOf = (i: number) => [200, 503, 404, 201, 302][i % 5] as number;
const voteOf = (i: number) => (i % 7 === 0 ? 'yes' : i % 7 === 1 ? 'no' : i % 7 === 2 ? 'partial' : undefined);

describe('two API processes sharing one Redis', () => {
  let redis: RedisProcess;
  let site: SiteRoot;
  let servers: ApiProcess[] = [];
  let client: Redis;

  beforeAll(async () => {
    // One after the other: if the second fails, afterAll still stops the first.
    redis = await startRedis();
    site = await prepareSite();
    const env = (n: number) =>
      site.env({ STORAGE_URL: redis.url, DATA_DIR: site.dataDir(n), RATE_LIMIT_TELEMETRY_PER_MIN: '0' });
    servers = await Promise.all([startApiProcess(env(0)), startApiProcess(env(1))]);
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    await site?.cleanup();
  });

  it(`counts ${N.toLocaleString('en')} concurrent telemetry POSTs split across both exactly`, async () => {
    const statuses = await pool(N, 64, async (i) => {
      const server = servers[i % 2] as ApiProcess;
      const res = await fetch(`${server.url}/api/v1/tools/${TOOLS[i % TOOLS.length]}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          execution_feedback: feedbackOf(i),
          trend_keyword: i % 3 ? 'scale out test' : 'Scale Out Test',
          validation_vote: voteOf(i),
        }),
      });
      await res.arrayBuffer();
      return res.status;
    });
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const expected = new Map(
      TOOLS.map((t) => [t, { requests: 0, successes: 0, failures: 0, votes: { yes: 0, no: 0, partial: 0 } }]),
    );
    for (let i = 0; i < N; i++) {
      const e = expected.get(TOOLS[i % TOOLS.length] as string)!;
      const f = feedbackOf(i);
      e.requests++;
      if (f >= 200 && f <= 299) e.successes++;
      else if (f >= 400) e.failures++;
      const v = voteOf(i);
      if (v) e.votes[v]++;
    }
    const store = redisTelemetryStore({ client });
    for (const [aid, e] of expected) {
      expect(await store.counters(aid)).toMatchObject({
        ...e,
        trend_keywords: [{ keyword: 'scale out test', count: e.requests }],
      });
    }
    // One client reached both processes: they share the salt, so trust evidence counts it once per tool.
    expect((await store.evidence!()).map((e) => [e.aid, e.clients])).toEqual([...TOOLS].sort().map((aid) => [aid, 1]));
    // Both processes answer the same totals: neither keeps its own copy.
    for (const s of servers) {
      const health = await (await fetch(`${s.url}/health`)).json();
      expect(health.telemetry).toMatchObject({ requests: N, tools_reported: TOOLS.length });
    }
    // Nothing went to files: the DATA_DIRs hold no telemetry log.
    for (const n of [0, 1])
      expect(await fsp.readdir(path.join(site.dataDir(n), 'telemetry')).catch(() => [])).toEqual([]);
  }, 300_000); // 10,000 requests through two processes: minutes on a loaded 2-core machine

  it('credits a report made on one process to the search answered by the other (first answers in the field)', async () => {
    const outcomes = async (s: ApiProcess) => (await (await fetch(`${s.url}/health`)).json()).search_outcomes;
    const before = await outcomes(servers[1]!);
    const found = await (await fetch(`${servers[0]!.url}/api/v1/tools?q=qt+gui`)).json();
    const aid = found.results[0].identity.aid as string;
    const report = (feedback: number) =>
      fetch(`${servers[1]!.url}/api/v1/tools/${aid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ execution_feedback: feedback, trend_keyword: 'build a desktop gui' }),
      }).then((r) => r.status);
    expect(await report(102)).toBe(200);
    expect(await report(200)).toBe(200);
    const after = await outcomes(servers[0]!);
    expect(after.searches - before.searches).toBe(1);
    expect(after.fetched['1'] - before.fetched['1']).toBe(1);
    expect(after.first_answer_met - before.first_answer_met).toBe(1);
  });

  it('shows a lookup made on one process in the other process at once', async () => {
    const url = (s: ApiProcess) => `${s.url}/api/v1/tools/pypi-pyqt5-v1`;
    await fetch(url(servers[0]!), { headers: { 'user-agent': 'claude-code/1.0' } }).then((r) => r.arrayBuffer());
    await fetch(url(servers[1]!), { headers: { 'user-agent': 'GPTBot/1.0' } }).then((r) => r.arrayBuffer());
    expect(await redisTelemetryStore({ client }).counters('pypi-pyqt5-v1')).toMatchObject({
      lookups: 2,
      lookups_by_agent: { coding_agent: 1, ai_crawler: 1 },
    });
  });

  it('queues one suggestion when both processes receive the same micro_translation at once; the catalog is unchanged', async () => {
    const file = path.join(site.catalogDir, 'tools', 'npm-request-v1.json');
    const before = await fsp.readFile(file, 'utf8');
    const body = JSON.stringify({
      execution_feedback: 200,
      trend_keyword: 'send requests',
      micro_translation: "node -e \"require('request')('{url}')\"",
    });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${servers[i % 2]!.url}/api/v1/tools/npm-request-v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    const pending = (await redisReviewQueue({ client }).list()).filter((s) => s.aid === 'npm-request-v1');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ field: 'execute_cmd', status: 'pending' });
    expect(await fsp.readFile(file, 'utf8')).toBe(before);
    const served = await (await fetch(`${servers[1]!.url}/api/v1/tools/npm-request-v1`)).json();
    expect(served.micro_task.field).toBe('execute_cmd');
  });
});

describe('Redis building blocks', () => {
  let redis: RedisProcess;
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    a = new Redis(redis.url);
    b = new Redis(redis.url);
  });
  afterAll(async () => {
    a?.disconnect();
    b?.disconnect();
    await redis?.stop();
  });

  it('rate limiter: one token bucket per key across processes, refilled over time, expiring when idle', async () => {
    let now = 1_000_000;
    const la = redisRateLimiter({ client: a, limit: 2, prefix: 'rl1:', now: () => now });
    const lb = redisRateLimiter({ client: b, limit: 2, prefix: 'rl1:', now: () => now });
    expect((await la.take('k')).allowed).toBe(true);
    expect((await lb.take('k')).allowed).toBe(true);
    expect(await la.take('k')).toMatchObject({ allowed: false, retryAfterS: 30 });
    expect((await lb.take('other')).allowed).toBe(true);
    now += 30_000;
    expect((await lb.take('k')).allowed).toBe(true);
    const ttl = await a.pttl('rl1:ratelimit:k');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(61_000);
  });

  it('rate limiter: 200 concurrent takes from two clients spend exactly the bucket', async () => {
    const la = redisRateLimiter({ client: a, limit: 25, prefix: 'rl2:' });
    const lb = redisRateLimiter({ client: b, limit: 25, prefix: 'rl2:' });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? la : lb).take('same client and tool')),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
  });

  it('review queue: duplicates and the bound hold across clients; list, get and remove', async () => {
    const qa = redisReviewQueue({ client: a, prefix: 'rq1:', maxPending: 3 });
    const qb = redisReviewQueue({ client: b, prefix: 'rq1:', maxPending: 3 });
    const s = { aid: 'npm-a-v1', field: 'execute_cmd' as const, value: 'a {x}', agent: 'unknown' as const };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? qa : qb).submit(s)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await qa.submit({ ...s, value: 'b' })).not.toBeNull();
    expect(await qb.submit({ ...s, value: 'c' })).not.toBeNull();
    expect(await qa.submit({ ...s, value: 'd' })).toBeNull();
    const list = await qb.list();
    // Oldest first by id (time, then a random tie-break within the same millisecond).
    expect(list.map((x) => x.value).sort()).toEqual(['a {x}', 'b', 'c']);
    expect(list.map((x) => x.id)).toEqual(list.map((x) => x.id).sort());
    const first = list[0]!;
    expect(await qa.get(first.id)).toEqual(first);
    expect(await qa.get('../etc/passwd')).toBeNull();
    await qa.remove(first.id);
    expect(await qb.get(first.id)).toBeNull();
    expect(await qb.submit(s)).not.toBeNull();
  });

  it('runtime state: STORAGE_URL selects Redis; a bad or unreachable URL stops the start with a clear message', async () => {
    const config = (url: string) => loadConfig({ STORAGE_URL: url, DATA_DIR: '/nonexistent-tcc', PORT: '0' });
    const state = await createRuntimeState(config(redis.url), { redisPrefix: 'rs1:' });
    expect(state.backend).toBe('redis');
    await state.telemetry.record({ kind: 'lookup', aid: 'npm-a-v1', agent: 'unknown', at: new Date().toISOString() });
    expect((await a.hgetall('rs1:telemetry:tool:npm-a-v1')).lookups).toBe('1');
    // A second process on the same Redis: same client hash, shared extra limiters.
    const other = await createRuntimeState(config(redis.url), { redisPrefix: 'rs1:' });
    expect(other.clientHash('203.0.113.9')).toBe(state.clientHash('203.0.113.9'));
    expect(other.clientHash('203.0.113.9')).not.toBe(other.clientHash('203.0.113.10'));
    const limits = [state, other].map((s) => s.createLimiter({ name: 'contribute', limit: 1, windowMs: 3_600_000 }));
    expect((await limits[0]!.take('ip')).allowed).toBe(true);
    expect((await limits[1]!.take('ip')).allowed).toBe(false);
    await other.close();
    await state.close();
    // Another scheme is refused once, by loadConfig, before any state is created.
    expect(() => config('memcached://127.0.0.1:1')).toThrow(/STORAGE_URL must be redis:/);
    await expect(createRuntimeState(config('redis://:hunter2@127.0.0.1:1/0'))).rejects.toThrow(
      /cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/,
    );
  });

  it('in-process servers on the same Redis share rate-limit buckets (429 on the other instance)', async () => {
    const site = await prepareSite();
    const servers: RunningServer[] = [];
    try {
      for (const n of [0, 1]) {
        const config = loadConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          ...site.env({ STORAGE_URL: redis.url, DATA_DIR: site.dataDir(n) }),
        });
        servers.push(await startServer(config, { telemetryRatePerMin: 3 }));
      }
      const post = (s: RunningServer) =>
        fetch(`${s.url}/api/v1/tools/npm-axios-v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ execution_feedback: 200, trend_keyword: 'shared bucket' }),
        }).then((r) => r.status);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await post(servers[i % 2]!));
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      for (const s of servers) await s.close();
      await site.cleanup();
    }
  });

  it('in-process servers on the same Redis share the contribution budget and the admin lockout', async () => {
    const site = await prepareSite();
    const servers: RunningServer[] = [];
    const before = process.env.CONTRIBUTE_RATE_PER_HOUR;
    process.env.CONTRIBUTE_RATE_PER_HOUR = '2';
    try {
      for (const n of [0, 1]) {
        const config = loadConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          ...site.env({ STORAGE_URL: redis.url, DATA_DIR: site.dataDir(n), ADMIN_SECRET: 'the-right-secret' }),
        });
        servers.push(await startServer(config, { telemetryRatePerMin: 0 }));
      }
      const [a, b] = servers as [RunningServer, RunningServer];
      const contribute = (s: RunningServer, value: string) =>
        fetch(`${s.url}/api/v1/contribute`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ aid: 'npm-axios-v1', field: 'execute_cmd', value }),
        }).then((r) => r.status);
      expect([
        await contribute(a, 'one'),
        await contribute(b, 'two'),
        await contribute(a, 'three'),
        await contribute(b, 'four'),
      ]).toEqual([202, 202, 429, 429]);
      // Ten wrong secrets, alternating instances: the client is locked out of both, even with the right one.
      const admin = (s: RunningServer, secret: string) =>
        fetch(`${s.url}/admin/rebuild`, { headers: { 'x-admin-secret': secret } });
      for (let i = 0; i < 10; i++) expect((await admin(i % 2 ? b : a, `wrong-${i}`)).status).toBe(403);
      for (const s of [a, b]) {
        const locked = await admin(s, 'the-right-secret');
        expect(locked.status).toBe(429);
        expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(50);
      }
    } finally {
      if (before === undefined) delete process.env.CONTRIBUTE_RATE_PER_HOUR;
      else process.env.CONTRIBUTE_RATE_PER_HOUR = before;
      for (const s of servers) await s.close();
      await site.cleanup();
    }
  });
});
