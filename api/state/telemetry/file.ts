// The TelemetryStore of a single API process: exact counts in memory (Aggregator), durability in the
// append-only event log under DATA_DIR. One process per DATA_DIR; several processes need the Redis store
// (redis-store.ts; api/runtime-state.ts chooses).
//
// Flush policy:
// - reports (valid tax payloads) are appended and fdatasync'd before record() resolves, so the 200 is
//   sent only once the report would survive a crash (group commit keeps this cheap under load);
// - lookups are counted in memory at once and written as one batch line every LOOKUP_FLUSH_MS and on
//   close: a GET never waits for the disk and a flood of GETs adds one line per interval, at the price
//   of losing at most that interval's lookup counts in a crash (never a report).
import path from 'node:path';
import type { AgentClass } from '../../services/agent-class.ts';
import { Aggregator } from './aggregator.ts';
import { EventLog } from './event-log.ts';
import type { TelemetryStore } from './types.ts';

export const LOOKUP_FLUSH_MS = 5_000;

export interface FileTelemetryOptions {
  dataDir: string;
  compactAfter?: number;
  lookupFlushMs?: number;
}

export async function fileTelemetryStore(options: FileTelemetryOptions): Promise<TelemetryStore> {
  const agg = new Aggregator();
  const log = await EventLog.open(
    { dir: path.join(options.dataDir, 'telemetry'), compactAfter: options.compactAfter },
    { apply: (e) => agg.apply(e), restore: (s) => agg.restore(s), snapshot: () => agg.snapshot() },
  );
  const pending = new Map<string, [string, AgentClass, number]>();
  const flushLookups = async () => {
    if (pending.size === 0) return;
    const counts = [...pending.values()];
    pending.clear();
    await log
      .append({ kind: 'lookups', at: new Date().toISOString(), counts }, { applied: true })
      .catch((error: unknown) => console.error('telemetry: lookup counts not persisted:', (error as Error).message));
  };
  const timer = setInterval(() => void flushLookups(), options.lookupFlushMs ?? LOOKUP_FLUSH_MS);
  timer.unref();
  let closed = false;
  return {
    record(event) {
      if (closed) return Promise.reject(new Error('telemetry log is closed'));
      if (event.kind === 'report') return log.append(event);
      agg.apply(event);
      const key = `${event.aid}\t${event.agent}`;
      const entry = pending.get(key);
      if (entry) entry[2]++;
      else pending.set(key, [event.aid, event.agent, 1]);
      return Promise.resolve();
    },
    counters: async (aid) => agg.counters(aid),
    trustCounters: async (aids) => aids.map((aid) => agg.trustCounters(aid)),
    totals: async () => agg.totals(),
    evidence: async () => agg.evidence(),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await flushLookups();
      await log.close();
    },
  };
}
