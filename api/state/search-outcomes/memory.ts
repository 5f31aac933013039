// The search-outcome store of one process: each client's recent searches in a Map (the least recently
// active clients dropped first past `maxClients`), counters in another. Gone on restart, like /metrics'
// own counters; redis.ts keeps them across processes and restarts.
import {
  type CounterDeltas,
  creditReport,
  liveRecords,
  newSearchRecord,
  type SearchRecord,
  totalsOf,
} from './records.ts';
import { SEARCHES_PER_CLIENT, type SearchOutcomeStore } from './types.ts';

export interface MemorySearchOutcomeOptions {
  maxClients?: number;
  now?: () => number;
}

export function memorySearchOutcomes({
  maxClients = 20_000,
  now = Date.now,
}: MemorySearchOutcomeOptions = {}): SearchOutcomeStore {
  const clients = new Map<string, SearchRecord[]>();
  const counts: Record<string, number> = {};
  const apply = (deltas: CounterDeltas) => {
    for (const [name, n] of Object.entries(deltas)) counts[name] = (counts[name] ?? 0) + n;
  };
  const keep = (client: string, records: SearchRecord[]) => {
    // Re-inserted, so Map order is least recently active first.
    clients.delete(client);
    clients.set(client, records);
    if (clients.size > maxClients) clients.delete(clients.keys().next().value as string);
  };
  return {
    async recordSearch(client, query, aids) {
      const t = now();
      keep(
        client,
        liveRecords([newSearchRecord(query, aids, t), ...(clients.get(client) ?? [])], t, SEARCHES_PER_CLIENT),
      );
      apply({ searches: 1 });
    },
    async recordReport(client, aid, verdict, keyword) {
      const records = clients.get(client) ?? [];
      const credit = creditReport(records, aid, verdict, keyword, now());
      if (credit.linked) keep(client, records.with(credit.index, credit.record));
      apply(credit.deltas);
    },
    async totals() {
      return totalsOf(counts);
    },
  };
}
