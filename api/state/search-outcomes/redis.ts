// The search-outcome store shared by several API processes: a client's recent searches are a Redis list
// (most recent first, trimmed, expiring with the window), the counters one hash. A report reads the list,
// decides with the same creditReport as memory.ts, and writes back through one Lua compare-and-set: if
// another process changed that search (or a new search shifted the list) meanwhile, it reads again, so two
// reports on one search never both count it as judged. Clocks: each host's own; a few seconds of skew
// against a 30-minute window does not matter.
import type { Redis } from 'ioredis';
import { type CounterDeltas, creditReport, newSearchRecord, type SearchRecord, totalsOf } from './records.ts';
import { SEARCH_WINDOW_MS, SEARCHES_PER_CLIENT, type SearchOutcomeStore } from './types.ts';

// KEYS[1] the client's list, KEYS[2] the counters; ARGV[1] the index, ARGV[2] the record expected there,
// ARGV[3] its new value, ARGV[4..] counter name and delta pairs.
const SWAP = `
if redis.call('LINDEX', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('LSET', KEYS[1], ARGV[1], ARGV[3])
for i = 4, #ARGV, 2 do redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1]) end
return 1
`;

type SwapFn = (list: string, counts: string, ...args: (string | number)[]) => Promise<number>;

export interface RedisSearchOutcomeOptions {
  client: Redis;
  prefix?: string;
  now?: () => number;
}

const ATTEMPTS = 8;

export function redisSearchOutcomes({
  client,
  prefix = 'tcc:',
  now = Date.now,
}: RedisSearchOutcomeOptions): SearchOutcomeStore {
  if (!('tccOutcomeSwap' in client)) client.defineCommand('tccOutcomeSwap', { numberOfKeys: 2, lua: SWAP });
  const swap = (client as unknown as { tccOutcomeSwap: SwapFn }).tccOutcomeSwap.bind(client);
  const countsKey = `${prefix}search-outcomes:counts`;
  const listKey = (c: string) => `${prefix}search-outcomes:client:${c}`;
  const pairs = (deltas: CounterDeltas) => Object.entries(deltas).flat();
  const increment = async (deltas: CounterDeltas) => {
    const names = Object.entries(deltas);
    if (names.length === 0) return;
    const multi = client.multi();
    for (const [name, n] of names) multi.hincrby(countsKey, name, n);
    await multi.exec();
  };
  return {
    async recordSearch(c, query, aids) {
      const key = listKey(c);
      await client
        .multi()
        .lpush(key, JSON.stringify(newSearchRecord(query, aids, now())))
        .ltrim(key, 0, SEARCHES_PER_CLIENT - 1)
        .pexpire(key, SEARCH_WINDOW_MS)
        .hincrby(countsKey, 'searches', 1)
        .exec();
    },
    async recordReport(c, aid, verdict, keyword) {
      const key = listKey(c);
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const raw = await client.lrange(key, 0, -1);
        const credit = creditReport(
          raw.map((r) => JSON.parse(r) as SearchRecord),
          aid,
          verdict,
          keyword,
          now(),
        );
        if (!credit.linked) return increment(credit.deltas);
        if (Object.keys(credit.deltas).length === 0) return;
        const swapped = await swap(
          key,
          countsKey,
          credit.index,
          raw[credit.index] as string,
          JSON.stringify(credit.record),
          ...pairs(credit.deltas),
        );
        if (swapped === 1) return;
      }
      throw new Error(`search outcome not counted: the searches of one client changed ${ATTEMPTS} times in a row`);
    },
    async totals() {
      const raw = await client.hgetall(countsKey);
      return totalsOf(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)])));
    },
  };
}
