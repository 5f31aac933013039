// The TelemetryStore shared by several API processes: counters live in Redis and every event is folded
// in by Redis itself, so no process ever reads, adds and writes back (no lost updates across processes).
//
// Mechanism: a report is one Lua script (atomic like MULTI/EXEC, and it can branch for the keyword
// bounds) of HINCRBY on the tool's hash and the totals hash plus ZINCRBY on the tool's keyword set; a
// lookup is one MULTI of HINCRBYs. record() resolves when Redis has answered, i.e. after its AOF write
// (and fsync, with `appendfsync always`): that is the durability a 200 stands for.
//
// Keys (prefix `tcc:` by default): telemetry:tool:<aid> (hash), telemetry:kw:<aid> (sorted set, score =
// -count so ZRANGE gives most frequent first and ties alphabetically, as the file store does),
// telemetry:totals (hash), telemetry:reported (set of aids with reports), telemetry:kw-entries (count);
// for trust evidence telemetry:clients:<aid> (hash client hash -> successes * 2^26 + failures, so one
// HINCRBY counts either), telemetry:judged (set of aids with clients), telemetry:client-entries (count).
import type { Redis } from 'ioredis';
import type { AgentClass } from '../../services/agent-class.ts';
import {
  MAX_CLIENTS_PER_TOOL,
  MAX_CLIENTS_TOTAL,
  MAX_KEYWORDS_PER_TOOL,
  MAX_KEYWORDS_TOTAL,
  TOP_KEYWORDS,
} from './aggregator.ts';
import { staleReads } from './stale-reads.ts';
import {
  outcomeOf,
  type TelemetryStore,
  emptyTotals,
  type TelemetryTotals,
  type ToolCounters,
  type ToolEvidence,
  type TrustCounters,
  type VoteCounts,
} from './types.ts';

const REPORT = `
local tool, kw, totals, reported, entries = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local outcome, vote, keyword, at = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
redis.call('HINCRBY', tool, 'requests', 1)
redis.call('HINCRBY', totals, 'requests', 1)
redis.call('HINCRBY', totals, 'events', 1)
if outcome ~= '' then
  redis.call('HINCRBY', tool, outcome, 1)
  redis.call('HINCRBY', totals, outcome, 1)
end
if vote ~= '' then
  redis.call('HINCRBY', tool, 'vote:' .. vote, 1)
  redis.call('HINCRBY', totals, 'vote:' .. vote, 1)
end
local last = redis.call('HGET', tool, 'last_report_at')
if (not last) or last < at then redis.call('HSET', tool, 'last_report_at', at) end
redis.call('SADD', reported, ARGV[1])
if redis.call('ZSCORE', kw, keyword) then
  redis.call('ZINCRBY', kw, -1, keyword)
elseif redis.call('ZCARD', kw) < tonumber(ARGV[6]) and tonumber(redis.call('GET', entries) or '0') < tonumber(ARGV[7]) then
  redis.call('ZADD', kw, -1, keyword)
  redis.call('INCR', entries)
else
  redis.call('HINCRBY', tool, 'other_keywords', 1)
end
-- Evidence per distinct client (judged reports only), bounded like the keywords; past a bound new
-- clients share the overflow entry '*'. Same rules as the file store's Aggregator.tally.
local step = tonumber(ARGV[8])
if step > 0 then
  local clients, centries, client = KEYS[6], KEYS[7], ARGV[9]
  if redis.call('HEXISTS', clients, client) == 0 then
    if not (redis.call('HLEN', clients) < tonumber(ARGV[10]) and tonumber(redis.call('GET', centries) or '0') < tonumber(ARGV[11])) then
      client = '*'
    end
    if redis.call('HEXISTS', clients, client) == 0 then redis.call('INCR', centries) end
  end
  redis.call('HINCRBY', clients, client, step)
  redis.call('SADD', KEYS[8], ARGV[1])
end
return 1
`;

/** A success adds this to the client's packed counter, a failure adds 1. */
const SUCCESS_STEP = 2 ** 26;

type ReportFn = (
  tool: string,
  kw: string,
  totals: string,
  reported: string,
  entries: string,
  clients: string,
  clientEntries: string,
  judged: string,
  aid: string,
  outcome: string,
  vote: string,
  keyword: string,
  at: string,
  maxPerTool: number,
  maxTotal: number,
  step: number,
  client: string,
  maxClientsPerTool: number,
  maxClientsTotal: number,
) => Promise<number>;

export interface RedisTelemetryOptions {
  client: Redis;
  /** Namespace for every key, so several catalogs (or tests) can share one Redis. */
  prefix?: string;
  maxKeywordsPerTool?: number;
  maxKeywordsTotal?: number;
  maxClientsPerTool?: number;
  maxClientsTotal?: number;
}

const TRUST_FIELDS = ['requests', 'successes', 'failures', 'vote:yes', 'vote:no', 'vote:partial'] as const;
const int = (v: string | undefined) => (v ? Number.parseInt(v, 10) : 0);
const votesOf = (h: Record<string, string>): VoteCounts => ({
  yes: int(h['vote:yes']),
  no: int(h['vote:no']),
  partial: int(h['vote:partial']),
});

function byAgent(h: Record<string, string>): Partial<Record<AgentClass, number>> {
  const out: Partial<Record<AgentClass, number>> = {};
  for (const [k, v] of Object.entries(h)) if (k.startsWith('la:')) out[k.slice(3) as AgentClass] = int(v);
  return out;
}

const emptyCounters = (): ToolCounters => ({
  requests: 0,
  successes: 0,
  failures: 0,
  votes: { yes: 0, no: 0, partial: 0 },
  lookups: 0,
  lookups_by_agent: {},
  trend_keywords: [],
  last_report_at: null,
});

export function redisTelemetryStore(options: RedisTelemetryOptions): TelemetryStore {
  const { client } = options;
  const p = `${options.prefix ?? 'tcc:'}telemetry:`;
  const keys = {
    totals: `${p}totals`,
    reported: `${p}reported`,
    entries: `${p}kw-entries`,
    clientEntries: `${p}client-entries`,
    judged: `${p}judged`,
  };
  const toolKey = (aid: string) => `${p}tool:${aid}`;
  const kwKey = (aid: string) => `${p}kw:${aid}`;
  const clientsKey = (aid: string) => `${p}clients:${aid}`;
  if (!('tccTelemetryReport' in client)) client.defineCommand('tccTelemetryReport', { numberOfKeys: 8, lua: REPORT });
  const report = (client as unknown as { tccTelemetryReport: ReportFn }).tccTelemetryReport.bind(client);
  const maxPerTool = options.maxKeywordsPerTool ?? MAX_KEYWORDS_PER_TOOL;
  const maxTotal = options.maxKeywordsTotal ?? MAX_KEYWORDS_TOTAL;
  const maxClientsPerTool = options.maxClientsPerTool ?? MAX_CLIENTS_PER_TOOL;
  const maxClientsTotal = options.maxClientsTotal ?? MAX_CLIENTS_TOTAL;

  // close() waits for what is in flight, so a graceful stop never drops an acknowledged-soon event.
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };
  let closed = false;
  const stale = staleReads();

  return {
    record(event) {
      if (closed) return Promise.reject(new Error('telemetry store is closed'));
      const { aid } = event;
      if (event.kind === 'report') {
        // Counted as the file store's aggregator counts (outcomeOf); '' tells the script "neither".
        const outcome = outcomeOf(event.execution_feedback) ?? '';
        const step = outcome === 'successes' ? SUCCESS_STEP : outcome === 'failures' ? 1 : 0;
        return track(
          report(
            toolKey(aid),
            kwKey(aid),
            keys.totals,
            keys.reported,
            keys.entries,
            clientsKey(aid),
            keys.clientEntries,
            keys.judged,
            aid,
            outcome,
            event.validation_vote ?? '',
            event.trend_keyword.toLowerCase(),
            event.at,
            maxPerTool,
            maxTotal,
            step,
            event.client ?? '',
            maxClientsPerTool,
            maxClientsTotal,
          ),
        ).then(() => undefined);
      }
      const agent = `la:${event.agent}`;
      return track(
        client
          .multi()
          .hincrby(toolKey(aid), 'lookups', 1)
          .hincrby(toolKey(aid), agent, 1)
          .hincrby(keys.totals, 'lookups', 1)
          .hincrby(keys.totals, 'events', 1)
          .hincrby(keys.totals, agent, 1)
          .exec(),
      ).then((results) => {
        const failed = results?.find(([error]) => error)?.[0];
        if (!results || failed) throw failed ?? new Error('telemetry: lookup transaction aborted');
      });
    },

    counters: (aid) =>
      stale.read(
        `c:${aid}`,
        async (): Promise<ToolCounters> => {
          const [h, top] = await Promise.all([
            client.hgetall(toolKey(aid)),
            client.zrange(kwKey(aid), 0, TOP_KEYWORDS - 1, 'WITHSCORES'),
          ]);
          const trend_keywords: ToolCounters['trend_keywords'] = [];
          for (let i = 0; i + 1 < top.length; i += 2)
            trend_keywords.push({ keyword: top[i] as string, count: -Number(top[i + 1]) });
          return {
            requests: int(h.requests),
            successes: int(h.successes),
            failures: int(h.failures),
            votes: votesOf(h),
            lookups: int(h.lookups),
            lookups_by_agent: byAgent(h),
            trend_keywords,
            last_report_at: h.last_report_at ?? null,
          };
        },
        emptyCounters,
      ),

    // One pipelined HMGET per listing: the fields a served trust block shows, nothing else.
    trustCounters: (aids) =>
      stale.readMany(
        aids.map((aid) => `t:${aid}`),
        async (): Promise<TrustCounters[]> => {
          const pipe = client.pipeline();
          for (const aid of aids) pipe.hmget(toolKey(aid), ...TRUST_FIELDS);
          const results = (await pipe.exec()) ?? [];
          return aids.map((_, i) => {
            const [error, values] = results[i] ?? [new Error('telemetry: pipeline answered short')];
            if (error) throw error;
            // HMGET answers in TRUST_FIELDS order.
            const n = (k: number) => int((values as (string | null)[])[k] ?? undefined);
            return { requests: n(0), successes: n(1), failures: n(2), votes: { yes: n(3), no: n(4), partial: n(5) } };
          });
        },
        () => ({ requests: 0, successes: 0, failures: 0, votes: { yes: 0, no: 0, partial: 0 } }),
      ),

    totals: () =>
      stale.read(
        'totals',
        async (): Promise<TelemetryTotals> => {
          const [h, reported] = await Promise.all([client.hgetall(keys.totals), client.scard(keys.reported)]);
          return {
            events: int(h.events),
            lookups: int(h.lookups),
            requests: int(h.requests),
            successes: int(h.successes),
            failures: int(h.failures),
            votes: votesOf(h),
            tools_reported: reported,
            lookups_by_agent: byAgent(h),
          };
        },
        emptyTotals,
      ),

    async evidence(): Promise<ToolEvidence[]> {
      const aids = (await client.smembers(keys.judged)).sort();
      return Promise.all(
        aids.map(async (aid) => {
          const [packed, [s, f]] = await Promise.all([
            client.hvals(clientsKey(aid)),
            client.hmget(toolKey(aid), 'successes', 'failures'),
          ]);
          let success_weight = 0;
          for (const v of packed) {
            const n = Number(v);
            const successes = Math.floor(n / SUCCESS_STEP);
            success_weight += successes / (successes + (n % SUCCESS_STEP));
          }
          return {
            aid,
            clients: packed.length,
            success_weight,
            successes: int(s ?? undefined),
            failures: int(f ?? undefined),
          };
        }),
      );
    },

    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
