// One TelemetryStore conformance suite that every backend passes (the file event log and Redis): exact
// counting rules, keyword ranking and bounds, per-client trust evidence, concurrency, durability across a
// reopen, refusal after close, and a model-based check against the in-memory Aggregator as the reference.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CLASSES, type AgentClass } from '../../api/services/agent-class.ts';
import { Aggregator, MAX_CLIENTS_PER_TOOL, MAX_KEYWORDS_PER_TOOL } from '../../api/state/telemetry/aggregator.ts';
import { fileTelemetryStore } from '../../api/state/telemetry/file.ts';
import { redisTelemetryStore } from '../../api/state/telemetry/redis.ts';
import type { ReportEvent, TelemetryEvent, TelemetryStore, ToolEvidence } from '../../api/state/telemetry/types.ts';
import { type RedisProcess, startRedis } from '../helpers/redis.ts';

/** A fresh, empty store; `reopen` closes it and opens a new one over the same state (a restart). */
interface Opened {
  store: TelemetryStore;
  reopen(): Promise<TelemetryStore>;
}

interface Backend {
  name: string;
  setup(): Promise<void>;
  open(): Promise<Opened>;
  teardown(): Promise<void>;
}

function fsBackend(): Backend {
  const dirs: string[] = [];
  return {
    name: 'fs',
    async setup() {},
    async open() {
      const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-conf-'));
      dirs.push(dataDir);
      const o: Opened = {
        store: await fileTelemetryStore({ dataDir }),
        async reopen() {
          await o.store.close();
          o.store = await fileTelemetryStore({ dataDir });
          return o.store;
        },
      };
      return o;
    },
    async teardown() {
      for (const d of dirs.splice(0)) await fsp.rm(d, { recursive: true, force: true });
    },
  };
}

function redisBackend(): Backend {
  let redis: RedisProcess;
  const clients: Redis[] = [];
  let n = 0;
  const client = () => {
    const c = new Redis(redis.url);
    clients.push(c);
    return c;
  };
  return {
    name: 'redis',
    async setup() {
      redis = await startRedis();
    },
    async open() {
      // Each store gets its own key prefix: tests share the server, never state.
      const prefix = `conf${n++}:`;
      const o: Opened = {
        store: redisTelemetryStore({ client: client(), prefix }),
        async reopen() {
          await o.store.close();
          o.store = redisTelemetryStore({ client: client(), prefix });
          return o.store;
        },
      };
      return o;
    },
    async teardown() {
      for (const c of clients.splice(0)) c.disconnect();
      await redis?.stop();
    },
  };
}

let clock = Date.UTC(2025, 0, 1);
const at = () => new Date((clock += 1000)).toISOString();
const report = (
  aid: string,
  execution_feedback: number,
  trend_keyword = 'some use',
  extra: Partial<ReportEvent> = {},
): ReportEvent => ({ kind: 'report', aid, agent: 'unknown', at: at(), execution_feedback, trend_keyword, ...extra });
const lookup = (aid: string, agent: AgentClass): TelemetryEvent => ({ kind: 'lookup', aid, agent, at: at() });

describe.each([fsBackend(), redisBackend()])('TelemetryStore conformance: $name', (backend) => {
  beforeAll(() => backend.setup());
  afterAll(() => backend.teardown());

  it('starts empty: zero counters for any tool, zero totals', async () => {
    const { store } = await backend.open();
    expect(await store.counters('npm-none-v1')).toEqual({
      requests: 0,
      successes: 0,
      failures: 0,
      votes: { yes: 0, no: 0, partial: 0 },
      lookups: 0,
      lookups_by_agent: {},
      trend_keywords: [],
      last_report_at: null,
    });
    expect(await store.trustCounters(['npm-none-v1', 'npm-other-v1'])).toEqual(
      [0, 1].map(() => ({ requests: 0, successes: 0, failures: 0, votes: { yes: 0, no: 0, partial: 0 } })),
    );
    expect(await store.trustCounters([])).toEqual([]);
    expect(await store.totals()).toEqual({
      events: 0,
      lookups: 0,
      requests: 0,
      successes: 0,
      failures: 0,
      votes: { yes: 0, no: 0, partial: 0 },
      tools_reported: 0,
      lookups_by_agent: {},
    });
    await store.close();
  });

  it('counts 2xx as success, 400-599 as failure, 1xx/3xx as neither; votes; the latest report time', async () => {
    const { store } = await backend.open();
    for (const f of [100, 199, 200, 299, 301, 399, 400, 404, 500, 599]) await store.record(report('npm-a-v1', f));
    await store.record(report('npm-a-v1', 200, 'x y', { validation_vote: 'yes' }));
    await store.record(report('npm-a-v1', 200, 'x y', { validation_vote: 'partial' }));
    const last = report('npm-a-v1', 500, 'x y', { validation_vote: 'no' });
    await store.record(last);
    expect(await store.counters('npm-a-v1')).toMatchObject({
      requests: 13,
      successes: 4,
      failures: 5,
      votes: { yes: 1, no: 1, partial: 1 },
      last_report_at: last.at,
    });
    expect(await store.totals()).toMatchObject({
      events: 13,
      requests: 13,
      successes: 4,
      failures: 5,
      tools_reported: 1,
    });
    await store.close();
  });

  it('ranks keywords case-insensitively, most frequent first then alphabetically, top 10, "__proto__" as text', async () => {
    const { store } = await backend.open();
    const kws = [
      '__proto__',
      'constructor',
      'Parse CSV',
      'parse csv',
      'parse csv',
      'b b',
      'a a',
      'c c',
      'd d',
      'e e',
      'f f',
      'g g',
      'h h',
      'i i',
      'b b',
    ];
    for (const k of kws) await store.record(report('npm-k-v1', 200, k));
    const top = (await store.counters('npm-k-v1')).trend_keywords;
    expect(top).toEqual([
      { keyword: 'parse csv', count: 3 },
      { keyword: 'b b', count: 2 },
      { keyword: '__proto__', count: 1 },
      { keyword: 'a a', count: 1 },
      { keyword: 'c c', count: 1 },
      { keyword: 'constructor', count: 1 },
      { keyword: 'd d', count: 1 },
      { keyword: 'e e', count: 1 },
      { keyword: 'f f', count: 1 },
      { keyword: 'g g', count: 1 },
    ]);
    await store.close();
  });

  it(`remembers at most ${MAX_KEYWORDS_PER_TOOL} distinct keywords per tool; later new ones are only counted`, async () => {
    const { store } = await backend.open();
    await Promise.all(
      Array.from({ length: MAX_KEYWORDS_PER_TOOL }, (_, i) =>
        store.record(report('npm-b-v1', 200, `kw ${String(i).padStart(3, '0')}`)),
      ),
    );
    for (let i = 0; i < 5; i++) await store.record(report('npm-b-v1', 200, 'zz overflow'));
    await store.record(report('npm-b-v1', 200, 'kw 007'));
    const c = await store.counters('npm-b-v1');
    expect(c.requests).toBe(MAX_KEYWORDS_PER_TOOL + 6);
    expect(c.trend_keywords[0]).toEqual({ keyword: 'kw 007', count: 2 });
    expect(c.trend_keywords.map((k) => k.keyword)).not.toContain('zz overflow');
    await store.close();
  });

  it('counts lookups per tool and user-agent class, and sums them in totals', async () => {
    const { store } = await backend.open();
    for (const agent of ['coding_agent', 'coding_agent', 'browser'] as const)
      await store.record(lookup('npm-l-v1', agent));
    await store.record(lookup('npm-m-v1', 'ai_crawler'));
    expect(await store.counters('npm-l-v1')).toMatchObject({
      lookups: 3,
      lookups_by_agent: { coding_agent: 2, browser: 1 },
      requests: 0,
    });
    expect(await store.totals()).toMatchObject({
      events: 4,
      lookups: 4,
      tools_reported: 0,
      lookups_by_agent: { coding_agent: 2, browser: 1, ai_crawler: 1 },
    });
    await store.close();
  });

  it('loses no update under 1,000 concurrent records', async () => {
    const { store } = await backend.open();
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        store.record(
          i % 4 === 0
            ? lookup('npm-c-v1', 'http_client')
            : report('npm-c-v1', i % 2 ? 200 : 503, i % 3 ? 'same use' : 'Same Use'),
        ),
      ),
    );
    expect(await store.counters('npm-c-v1')).toMatchObject({
      requests: 750,
      successes: 500,
      failures: 250,
      lookups: 250,
      trend_keywords: [{ keyword: 'same use', count: 750 }],
    });
    expect((await store.totals()).events).toBe(1000);
    await store.close();
  });

  it('keeps everything across a close and reopen', async () => {
    const o = await backend.open();
    for (let i = 0; i < 20; i++)
      await o.store.record(
        i % 5 ? report(`npm-r${i % 3}-v1`, 200, 'keep me', { validation_vote: 'yes' }) : lookup('npm-r0-v1', 'browser'),
      );
    const totals = await o.store.totals();
    const counters = await o.store.counters('npm-r1-v1');
    const store = await o.reopen();
    expect(await store.totals()).toEqual(totals);
    expect(await store.counters('npm-r1-v1')).toEqual(counters);
    await store.close();
  });

  it('refuses to record after close instead of losing events silently', async () => {
    const { store } = await backend.open();
    await store.close();
    await expect(store.record(report('npm-a-v1', 200))).rejects.toThrow(/closed/);
  });

  it('weighs trust evidence per distinct client, each client once, with an overflow entry past the bound', async () => {
    const { store } = await backend.open();
    const judged = (client: string | undefined, f: number) =>
      report('npm-e-v1', f, 'some use', client === undefined ? {} : { client });
    for (const [c, f] of [
      ['a', 200],
      ['a', 200],
      ['a', 500],
      ['b', 404],
      [undefined, 201],
      ['c', 302],
    ] as const)
      await store.record(judged(c, f));
    const [e] = await store.evidence!();
    expect(e).toMatchObject({ aid: 'npm-e-v1', clients: 3, successes: 3, failures: 2 });
    expect(e?.success_weight).toBeCloseTo(2 / 3 + 0 + 1, 10);
    await Promise.all(
      Array.from({ length: MAX_CLIENTS_PER_TOOL + 5 }, (_, i) =>
        store.record(report('npm-f-v1', 200, 'x y', { client: `c${i}` })),
      ),
    );
    const f = (await store.evidence!()).find((x) => x.aid === 'npm-f-v1');
    expect(f).toMatchObject({
      clients: MAX_CLIENTS_PER_TOOL + 1,
      successes: MAX_CLIENTS_PER_TOOL + 5,
      success_weight: MAX_CLIENTS_PER_TOOL + 1,
    });
    await store.close();
  });

  it('agrees with the reference Aggregator on any sequence of events', async () => {
    const aid = fc.constantFrom('npm-a-v1', 'npm-b-v1', 'pypi-c-v1');
    const keyword = fc.constantFrom('send email', 'Send Email', 'parse csv', '__proto__ x', 'a b');
    const event: fc.Arbitrary<TelemetryEvent> = fc.oneof(
      fc.record({ aid, agent: fc.constantFrom(...AGENT_CLASSES) }).map(({ aid, agent }) => lookup(aid, agent)),
      fc
        .record({
          aid,
          f: fc.integer({ min: 100, max: 599 }),
          k: keyword,
          v: fc.option(fc.constantFrom('yes', 'no', 'partial') as fc.Arbitrary<'yes' | 'no' | 'partial'>, {
            nil: undefined,
          }),
          c: fc.option(fc.constantFrom('c1', 'c2', 'c3'), { nil: undefined }),
        })
        .map(({ aid, f, k, v, c }) =>
          report(aid, f, k, { ...(v ? { validation_vote: v } : {}), ...(c ? { client: c } : {}) }),
        ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), async (events) => {
        const model = new Aggregator();
        const { store } = await backend.open();
        for (const e of events) {
          model.apply(e);
          await store.record(e);
        }
        const aids = ['npm-a-v1', 'npm-b-v1', 'pypi-c-v1'];
        for (const a of aids) expect(await store.counters(a)).toEqual(model.counters(a));
        // The served part, batched and in the order asked (a repeated aid included).
        expect(await store.trustCounters([...aids, 'npm-a-v1'])).toEqual(
          [...aids, 'npm-a-v1'].map((a) => {
            const c = model.counters(a);
            return { requests: c.requests, successes: c.successes, failures: c.failures, votes: c.votes };
          }),
        );
        expect(await store.totals()).toEqual(model.totals());
        const byAid = (xs: ToolEvidence[]) => [...xs].sort((a, b) => (a.aid < b.aid ? -1 : 1));
        const got = byAid(await store.evidence!());
        const want = byAid(model.evidence());
        expect(got.map(({ success_weight: _, ...rest }) => rest)).toEqual(
          want.map(({ success_weight: _, ...rest }) => rest),
        );
        for (const [i, g] of got.entries())
          expect(g.success_weight).toBeCloseTo(want[i]?.success_weight ?? Number.NaN, 9);
        await store.close();
      }),
      { numRuns: 25 },
    );
  });
});
