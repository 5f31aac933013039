// The TelemetryStore of a single API process: exact counts in memory (Aggregator), durability in the
// append-only event log under DATA_DIR. One process per DATA_DIR; several processes need the Redis store.
import path from 'node:path';
import { Aggregator } from './aggregator.ts';
import { EventLog } from './event-log.ts';
import type { TelemetryStore } from './types.ts';

export interface FileTelemetryOptions {
  dataDir: string;
  compactAfter?: number;
}

export async function fileTelemetryStore(options: FileTelemetryOptions): Promise<TelemetryStore> {
  const agg = new Aggregator();
  const log = await EventLog.open(
    { dir: path.join(options.dataDir, 'telemetry'), compactAfter: options.compactAfter },
    { apply: (e) => agg.apply(e), restore: (s) => agg.restore(s), snapshot: () => agg.snapshot() },
  );
  return {
    record: (event) => log.append(event),
    counters: async (aid) => agg.counters(aid),
    totals: async () => agg.totals(),
    close: () => log.close(),
  };
}

/** Chooses the backend from STORAGE_URL; only the file backend exists so far. */
export async function openTelemetryStore(options: { dataDir: string; storageUrl?: string }): Promise<TelemetryStore> {
  if (options.storageUrl?.startsWith('redis')) {
    // TODO(redis): a Redis TelemetryStore (HINCRBY per tool, ZINCRBY for keywords) behind the same interface.
    console.warn('telemetry: no Redis store yet; counting in DATA_DIR (single process only)');
  }
  return fileTelemetryStore({ dataDir: options.dataDir });
}
