// The other runtime-state interfaces, like telemetry, pass one shared suite on both backends: the review
// queue (files under DATA_DIR, Redis), the rate limiter (in-process token bucket, Redis token bucket), the admin
// lockout and the search outcomes (first answers in the field: in-process, Redis).
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
import { memorySearchOutcomes } from '../../api/state/search-outcomes/memory.ts';
import { redisSearchOutcomes } from '../../api/state/search-outcomes/redis.ts';
import {
  SEARCH_WINDOW_MS,
  SEARCHES_PER_CLIENT,
  type SearchOutcomeStore,
} from '../../api/state/search-outcomes/types.ts';
import { type RedisProcess, startRedis } from '../helpers/redis.ts';

interface Backend {
  name: string;
  /** A fresh queue; `again` opens a second handle on the same state (another process, or a restart). */
  queue(maxPending?: number): Promise<{ q: ReviewQueue; again(): Promise<ReviewQueue> }>;
  limiter(limit: number, now: () => number, windowMs?: number): RateLimiter;
  /** Two handles on one lockout state (two processes; in-process state cannot be shared, so one handle). */
  authFailures(now: () => number): [AuthFailures, AuthFailures];
  /** Two handles on one search-outcome state (in-process: the same handle twice). */
  searchOutcomes(now: () => number): [SearchOutcomeStore, SearchOutcomeStore];
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
    searchOutcomes: (now) => {
      const o = memorySearchOutcomes({ now });
      return [o, o];
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
    searchOutcomes: (now) => {
      const prefix = `soc${n++}:`;
      return [
        redisSearchOutcomes({ client: redisClient(), prefix, now }),
        redisSearchOutcomes({ client: redisClient(), prefix, now }),
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

const ANSWERS = ['npm-a-v1', 'npm-b-v1', 'npm-c-v1', 'npm-d-v1', 'npm-e-v1'];

describe.each(backends)('SearchOutcomeStore conformance: $name', (backend) => {
  it('credits a fetch and then a use to the rank of the answer; a first answer that worked is met first', async () => {
    const [s] = backend.searchOutcomes(() => 1_000_000);
    await s.recordSearch('c1', 'send an email', ANSWERS);
    await s.recordReport('c1', 'npm-a-v1', 'fetch', 'send an email');
    await s.recordReport('c1', 'npm-a-v1', 'fetch', 'send an email');
    let t = await s.totals();
    expect(t).toMatchObject({ searches: 1, searches_judged: 0, first_answer_met: 0, unlinked_reports: 0 });
    expect(t.fetched).toEqual({ '1': 1, '2': 0, '3': 0, '4-10': 0 });
    await s.recordReport('c1', 'npm-a-v1', 'success', 'send an email');
    t = await s.totals();
    expect(t).toMatchObject({ searches_judged: 1, first_answer_met: 1, met_within_three: 1 });
    expect(t.judged['1']).toEqual({ success: 1, failure: 0 });
  });

  it('a later verdict on the same answer replaces the earlier one ("200 on first use", then it failed)', async () => {
    const [s] = backend.searchOutcomes(() => 1_000_000);
    await s.recordSearch('c1', 'send an email', ANSWERS);
    await s.recordReport('c1', 'npm-a-v1', 'success', 'send an email');
    await s.recordReport('c1', 'npm-a-v1', 'failure', 'send an email');
    await s.recordReport('c1', 'npm-a-v1', 'failure', 'send an email');
    const t = await s.totals();
    expect(t).toMatchObject({ searches: 1, searches_judged: 1, first_answer_met: 0, met_within_three: 0 });
    expect(t.judged['1']).toEqual({ success: 0, failure: 1 });
  });

  it('met within three but not first: the first answer failed, the third worked; the fifth counts as 4-10', async () => {
    const [s] = backend.searchOutcomes(() => 1_000_000);
    await s.recordSearch('c1', 'send an email', ANSWERS);
    await s.recordReport('c1', 'npm-a-v1', 'failure', 'send an email');
    await s.recordReport('c1', 'npm-c-v1', 'success', 'send an email');
    await s.recordReport('c1', 'npm-e-v1', 'fetch', 'send an email');
    const t = await s.totals();
    expect(t).toMatchObject({ searches_judged: 1, first_answer_met: 0, met_within_three: 1 });
    expect(t.judged['3']).toEqual({ success: 1, failure: 0 });
    expect(t.fetched['4-10']).toBe(1);
  });

  it('a report on a tool no recent search of that client answered is unlinked; clients never see each other', async () => {
    const [s] = backend.searchOutcomes(() => 1_000_000);
    await s.recordSearch('c1', 'send an email', ANSWERS);
    await s.recordReport('c1', 'npm-zzz-v1', 'success', 'send an email');
    await s.recordReport('c2', 'npm-a-v1', 'success', 'send an email');
    const t = await s.totals();
    expect(t).toMatchObject({ searches: 1, searches_judged: 0, first_answer_met: 0, unlinked_reports: 2 });
  });

  it('credits the most recent search that answered the tool, within the window only, a bounded number per client', async () => {
    let now = 1_000_000;
    const [s] = backend.searchOutcomes(() => now);
    await s.recordSearch('c1', 'send an email', ['npm-x-v1', 'npm-a-v1']);
    now += 1000;
    await s.recordSearch('c1', 'send an email', ['npm-a-v1']);
    await s.recordReport('c1', 'npm-a-v1', 'success', 'send an email');
    let t = await s.totals();
    expect(t.judged['1'].success).toBe(1);
    expect(t.judged['2'].success).toBe(0);
    // Past the window nothing is credited.
    await s.recordSearch('c3', 'send an email', ['npm-a-v1']);
    now += SEARCH_WINDOW_MS + 1;
    await s.recordReport('c3', 'npm-a-v1', 'success', 'send an email');
    t = await s.totals();
    expect(t.unlinked_reports).toBe(1);
    // One search more than a client keeps: the oldest is no longer credited.
    await s.recordSearch('c4', 'send an email', ['npm-old-v1']);
    for (let i = 0; i < SEARCHES_PER_CLIENT; i++) await s.recordSearch('c4', 'send an email', [`npm-new${i}-v1`]);
    await s.recordReport('c4', 'npm-old-v1', 'success', 'send an email');
    await s.recordReport('c4', 'npm-new0-v1', 'success', 'send an email');
    t = await s.totals();
    expect(t.unlinked_reports).toBe(2);
    expect(t.first_answer_met).toBe(2);
  });

  it('an agent working on two needs at once: a report goes to the search its trend keyword names', async () => {
    let now = 1_000_000;
    const [s] = backend.searchOutcomes(() => now);
    await s.recordSearch('c1', 'convert markdown to html', ['npm-md-v1', 'npm-shared-v1']);
    now += 10;
    await s.recordSearch('c1', 'extract the text of a pdf', ['npm-shared-v1', 'npm-pdf-v1']);
    now += 10;
    // The newer search answered npm-shared-v1 first, but the report is about the markdown need (rank 2).
    await s.recordReport('c1', 'npm-shared-v1', 'fetch', 'markdown to html');
    await s.recordReport('c1', 'npm-shared-v1', 'success', 'markdown to html');
    let t = await s.totals();
    expect(t.fetched['2']).toBe(1);
    expect(t.judged['2'].success).toBe(1);
    expect(t.first_answer_met).toBe(0);
    // No word in common: the search where this answer was fetched, then the most recent.
    await s.recordReport('c1', 'npm-shared-v1', 'failure', 'whatever it was');
    t = await s.totals();
    expect(t.judged['2']).toEqual({ success: 0, failure: 1 });
    await s.recordReport('c1', 'npm-pdf-v1', 'success', '');
    t = await s.totals();
    expect(t.judged['2']).toEqual({ success: 1, failure: 1 });
  });

  // Two needs searched before either reports, alike but for the newer one's extra words, a short number or their
  // order: each report goes to its own search, not to the newer one. The answer sits at rank 1 in one and rank 2 in
  // the other, and one fails while the other works, so a report credited to the wrong search changes the counts.
  it.each([
    ['resize an image', 'resize an image into a square thumbnail'],
    ['extract page 2 of a PDF', 'extract page 3 of a PDF'],
    ['convert a GIF image to PNG', 'convert a PNG image to GIF'],
  ])('two needs alike, "%s" and "%s": each report goes to its own search', async (older, newer) => {
    let now = 1_000_000;
    const [s] = backend.searchOutcomes(() => now);
    await s.recordSearch('c1', older, ['npm-tool-v1']);
    now += 10;
    await s.recordSearch('c1', newer, ['npm-other-v1', 'npm-tool-v1']);
    await s.recordReport('c1', 'npm-tool-v1', 'failure', older);
    await s.recordReport('c1', 'npm-tool-v1', 'success', newer);
    const t = await s.totals();
    expect(t).toMatchObject({ searches: 2, searches_judged: 2, first_answer_met: 0, met_within_three: 1 });
    expect(t.judged['1']).toEqual({ success: 0, failure: 1 });
    expect(t.judged['2']).toEqual({ success: 1, failure: 0 });
  });

  it('counts exactly when reports on one search arrive at once through two handles (two processes)', async () => {
    const [a, b] = backend.searchOutcomes(() => 1_000_000);
    await a.recordSearch('c1', 'send an email', ANSWERS);
    const reports = ANSWERS.flatMap((aid, i) => [
      (i % 2 ? a : b).recordReport('c1', aid, 'fetch', 'send an email'),
      (i % 2 ? b : a).recordReport('c1', aid, i === 0 ? 'success' : 'failure', 'send an email'),
    ]);
    await Promise.all(reports);
    const t = await b.totals();
    expect(t).toMatchObject({ searches: 1, searches_judged: 1, first_answer_met: 1, met_within_three: 1 });
    const judged = Object.values(t.judged).reduce((sum, j) => sum + j.success + j.failure, 0);
    expect(judged).toBe(5);
    expect(Object.values(t.fetched).reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(5);
  });
});
