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
// telemetry:totals (hash), telemetry:reported (set of aids with reports), telemetry:kw-entries (count).
import type { Redis } from 'ioredis';
import type { AgentClass } from '../client.ts';
import { MAX_KEYWORDS_PER_TOOL, MAX_KEYWORDS_TOTAL, TOP_KEYWORDS } from './aggregator.ts';
import type { ReportEvent, TelemetryStore, TelemetryTotals, ToolCounters, VoteCounts } from './types.ts';

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
return 1
`;

type ReportFn = (tool: string, kw: string, totals: string, reported: string, entries: string,
  aid: string, outcome: string, vote: string, keyword: string, at: string, maxPerTool: number, maxTotal: number) => Promise<number>;

export interface RedisTelemetryOptions {
  client: Redis;
  /** Namespace for every key, so several catalogs (or tests) can share one Redis. */
  prefix?: string;
  maxKeywordsPerTool?: number;
  maxKeywordsTotal?: number;
}

const int = (v: string | undefined) => (v ? Number.parseInt(v, 10) : 0);
const votesOf = (h: Record<string, string>): VoteCounts => ({ yes: int(h['vote:yes']), no: int(h['vote:no']), partial: int(h['vote:partial']) });

function byAgent(h: Record<string, string>): Partial<Record<AgentClass, number>> {
  const out: Partial<Record<AgentClass, number>> = {};
  for (const [k, v] of Object.entries(h)) if (k.startsWith('la:')) out[k.slice(3) as AgentClass] = int(v);
  return out;
}

/** Counts the way the file store's aggregator does: 2xx success, 400-599 failure, the rest neither. */
const outcomeOf = (e: ReportEvent) => (e.execution_feedback >= 200 && e.execution_feedback <= 299 ? 'successes' : e.execution_feedback >= 400 ? 'failures' : '');

export function redisTelemetryStore(options: RedisTelemetryOptions): TelemetryStore {
  const { client } = options;
  const p = `${options.prefix ?? 'tcc:'}telemetry:`;
  const keys = { totals: `${p}totals`, reported: `${p}reported`, entries: `${p}kw-entries` };
  const toolKey = (aid: string) => `${p}tool:${aid}`;
  const kwKey = (aid: string) => `${p}kw:${aid}`;
  if (!('tccTelemetryReport' in client)) client.defineCommand('tccTelemetryReport', { numberOfKeys: 5, lua: REPORT });
  const report = (client as unknown as { tccTelemetryReport: ReportFn }).tccTelemetryReport.bind(client);
  const maxPerTool = options.maxKeywordsPerTool ?? MAX_KEYWORDS_PER_TOOL;
  const maxTotal = options.maxKeywordsTotal ?? MAX_KEYWORDS_TOTAL;

  // close() waits for what is in flight, so a graceful stop never drops an acknowledged-soon event.
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };
  let closed = false;

  return {
    record(event) {
      if (closed) return Promise.reject(new Error('telemetry store is closed'));
      const { aid } = event;
      if (event.kind === 'report') {
        return track(report(toolKey(aid), kwKey(aid), keys.totals, keys.reported, keys.entries, aid, outcomeOf(event),
          event.validation_vote ?? '', event.trend_keyword.toLowerCase(), event.at, maxPerTool, maxTotal)).then(() => undefined);
      }
      const agent = `la:${event.agent}`;
      return track(client.multi()
        .hincrby(toolKey(aid), 'lookups', 1).hincrby(toolKey(aid), agent, 1)
        .hincrby(keys.totals, 'lookups', 1).hincrby(keys.totals, 'events', 1).hincrby(keys.totals, agent, 1)
        .exec()).then((results) => {
        const failed = results?.find(([error]) => error)?.[0];
        if (!results || failed) throw failed ?? new Error('telemetry: lookup transaction aborted');
      });
    },

    async counters(aid): Promise<ToolCounters> {
      const [h, top] = await Promise.all([client.hgetall(toolKey(aid)), client.zrange(kwKey(aid), 0, TOP_KEYWORDS - 1, 'WITHSCORES')]);
      const trend_keywords: ToolCounters['trend_keywords'] = [];
      for (let i = 0; i + 1 < top.length; i += 2) trend_keywords.push({ keyword: top[i] as string, count: -Number(top[i + 1]) });
      return {
        requests: int(h.requests), successes: int(h.successes), failures: int(h.failures), votes: votesOf(h),
        lookups: int(h.lookups), lookups_by_agent: byAgent(h), trend_keywords, last_report_at: h.last_report_at ?? null,
      };
    },

    async totals(): Promise<TelemetryTotals> {
      const [h, reported] = await Promise.all([client.hgetall(keys.totals), client.scard(keys.reported)]);
      return {
        events: int(h.events), lookups: int(h.lookups), requests: int(h.requests), successes: int(h.successes),
        failures: int(h.failures), votes: votesOf(h), tools_reported: reported, lookups_by_agent: byAgent(h),
      };
    },

    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
