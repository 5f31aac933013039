// The other runtime-state interfaces, like telemetry, pass one shared suite on both backends: the review
// queue (files under DATA_DIR, Redis) and the rate limiter (in-process token bucket, Redis token bucket).
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAuthFailures } from '../../api/state/admin-auth/memory.ts';
import type { AuthFailures } from '../../api/state/admin-auth/types.ts';
import { redisAuthFailures } from '../../api/state/admin-auth/redis.ts';
import { tokenBucketLimiter } from '../../api/state/rate-limit/memory.ts';
import type { RateLimiter } from '../../api/state/rate-limit/types.ts';
import { redisRateLimiter } from '../../api/state/rate-limit/redis.ts';
import { fileReviewQueue } from '../../api/state/review-queue/file.ts';
import type { NewSuggestion, ReviewQueue } from '../../api/state/review-queue/types.ts';
import { redisReviewQueue } from '../../api/state/review-queue/redis.ts';
import { type RedisProcess, startRedis } from '../helpers/redis.ts';

interface Backend {
  name: string;
  /** A fresh queue; `again` opens a second handle on the same state (another process, or a restart). */
  queue(maxPending?: number): Promise<{ q: ReviewQueue; again(): Promise<ReviewQueue> }>;
  limiter(limit: number, now: () => number, windowMs?: number): RateLimiter;
  /** Two handles on one lockout state (two processes; in-process state cannot be shared, so one handle). */
  authFailures(now: () => number): [AuthFailures, AuthFailures];
}

let redis: RedisProcess;
const clients: Redis[] = [];
const dirs: string[] = [];
let n = 0;
const redisClient = () => {
  const c = new Redis(redis.url);
  clients.push(c);
  return c;
};

const backends: Backend[] = [
  {
    name: 'fs / in-process',
    async queue(maxPending) {
      const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-rq-'));
      dirs.push(dataDir);
      return {
        q: await fileReviewQueue({ dataDir, maxPending }),
        again: () => fileReviewQueue({ dataDir, maxPending }),
      };
    },
    limiter: (limit, now, windowMs) => tokenBucketLimiter({ limit, now, ...(windowMs ? { windowMs } : {}) }),
    authFailures: (now) => {
      const f = memoryAuthFailures({ now });
      return [f, f];
    },
  },
  {
    name: 'redis',
    async queue(maxPending) {
      const prefix = `rqc${n++}:`;
      return {
        q: redisReviewQueue({ client: redisClient(), prefix, maxPending }),
        again: async () => redisReviewQueue({ client: redisClient(), prefix, maxPending }),
      };
    },
    limiter: (limit, now, windowMs) =>
      redisRateLimiter({ client: redisClient(), limit, prefix: `rlc${n++}:`, now, ...(windowMs ? { windowMs } : {}) }),
    authFailures: (now) => {
      const prefix = `afc${n++}:`;
      return [
        redisAuthFailures({ client: redisClient(), prefix, now }),
        redisAuthFailures({ client: redisClient(), prefix, now }),
      ];
    },
  },
];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  await redis?.stop();
  for (const d of dirs.splice(0)) await fsp.rm(d, { recursive: true, force: true });
});

const suggestion = (value: string, extra: Partial<NewSuggestion> = {}): NewSuggestion => ({
  aid: 'npm-a-v1',
  field: 'execute_cmd',
  value,
  agent: 'coding_agent',
  ...extra,
});

describe.each(backends)('ReviewQueue conformance: $name', (backend) => {
  it('queues, lists oldest first, reads by id, removes; ids are safe, unknown ids are null', async () => {
    const { q } = await backend.queue();
    const a = await q.submit(suggestion('a {x}', { kind: 'fix', note: 'from the docs' }));
    expect(a).toMatchObject({ aid: 'npm-a-v1', value: 'a {x}', status: 'pending', kind: 'fix', note: 'from the docs' });
    expect(a?.id).toMatch(/^[a-z0-9-]{1,64}$/);
    await new Promise((r) => setTimeout(r, 2));
    const b = await q.submit(suggestion('b'));
    expect((await q.list()).map((s) => s.value)).toEqual(['a {x}', 'b']);
    expect(await q.get(a!.id)).toEqual(a);
    for (const bad of ['../../etc/passwd', 'x'.repeat(65), 'A', '']) expect(await q.get(bad)).toBeNull();
    await q.remove(a!.id);
    await q.remove('no-such-id');
    expect(await q.list()).toEqual([b]);
  });

  it('refuses a duplicate of a pending suggestion (also under concurrency) and accepts it again once removed', async () => {
    const { q } = await backend.queue();
    const results = await Promise.all(Array.from({ length: 10 }, () => q.submit(suggestion('same'))));
    const queued = results.filter((r) => r !== null);
    expect(queued).toHaveLength(1);
    expect(await q.submit(suggestion('same', { field: 'install_cmd' }))).not.toBeNull();
    await q.remove(queued[0]!.id);
    expect(await q.submit(suggestion('same'))).not.toBeNull();
  });

  it('bounds pending suggestions', async () => {
    const { q } = await backend.queue(2);
    expect(await q.submit(suggestion('1'))).not.toBeNull();
    expect(await q.submit(suggestion('2'))).not.toBeNull();
    expect(await q.submit(suggestion('3'))).toBeNull();
  });

  it('keeps suggestions and the duplicate check across a reopen', async () => {
    const { q, again } = await backend.queue();
    const s = await q.submit(suggestion('kept'));
    const reopened = await again();
    expect(await reopened.list()).toEqual([s]);
    expect(await reopened.submit(suggestion('kept'))).toBeNull();
  });
});

describe.each(backends)('RateLimiter conformance: $name', (backend) => {
  it('a bucket of `limit` tokens per key, refilled over a minute, refilled continuously, with Retry-After in whole seconds', async () => {
    let now = 5_000_000;
    const l = backend.limiter(3, () => now);
    for (let i = 0; i < 3; i++) expect(await l.take('k')).toMatchObject({ allowed: true, remaining: 2 - i });
    expect(await l.take('k')).toEqual({ allowed: false, retryAfterS: 20, remaining: 0 });
    expect((await l.take('other')).allowed).toBe(true);
    now += 19_000;
    expect((await l.take('k')).allowed).toBe(false);
    now += 1_000;
    expect((await l.take('k')).allowed).toBe(true);
    now += 10 * 60_000;
    expect(await l.take('k')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('an hourly bucket (contributions): 2 per hour, one back every 30 minutes', async () => {
    let now = 9_000_000;
    const l = backend.limiter(2, () => now, 3_600_000);
    expect((await l.take('ip')).allowed).toBe(true);
    expect((await l.take('ip')).allowed).toBe(true);
    expect(await l.take('ip')).toEqual({ allowed: false, retryAfterS: 1800, remaining: 0 });
    now += 29 * 60_000;
    expect((await l.take('ip')).allowed).toBe(false);
    now += 60_000;
    expect(await l.take('ip')).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('0 per minute means no limit', async () => {
    const l = backend.limiter(0, () => 0);
    for (let i = 0; i < 50; i++) expect((await l.take('k')).allowed).toBe(true);
  });
});

describe.each(backends)('AuthFailures (admin lockout) conformance: $name', (backend) => {
  it('locks a client out after 10 wrong secrets within a minute (counted across handles), until the oldest leaves the window', async () => {
    let now = 7_000_000;
    const [a, b] = backend.authFailures(() => now);
    for (let i = 0; i < 9; i++) {
      await (i % 2 ? b : a).fail('203.0.113.5');
      now += 1_000;
    }
    expect(await a.lockedFor('203.0.113.5')).toBe(0);
    await b.fail('203.0.113.5');
    // The first failure was 9 s ago: locked for the 51 s until it is a minute old.
    expect(await a.lockedFor('203.0.113.5')).toBe(51);
    expect(await b.lockedFor('203.0.113.5')).toBe(51);
    expect(await a.lockedFor('203.0.113.6')).toBe(0);
    now += 50_500;
    expect(await b.lockedFor('203.0.113.5')).toBe(1);
    now += 500;
    expect(await a.lockedFor('203.0.113.5')).toBe(0);
    // Sliding: one more failure now makes ten within the last minute again (the 2nd to the 11th).
    await a.fail('203.0.113.5');
    expect(await b.lockedFor('203.0.113.5')).toBe(1);
    now += 120_000;
    expect(await a.lockedFor('203.0.113.5')).toBe(0);
  });
});
