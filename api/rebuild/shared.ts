// Several API processes on one Redis and one dist/: exactly one of them rebuilds after a write. Every
// process's scheduler (rebuild.ts) is woken by its own writes and by change notices, and each of its runs
// goes through here:
//   1. take the rebuild lock (SET NX PX, renewed while building); not taken → another process builds:
//      skip, and look again once a lock of a dead holder would have expired;
//   2. read the pending hash (every change no build has included yet, written with each change in
//      build/storage/redis-overlay.ts); empty → someone already built it all: skip;
//   3. reload those records into this process's snapshot (a notice may still be on its way), build;
//   4. delete exactly the pending entries it read (compare-and-delete), so a record written again
//      during the build stays pending for the next one; release the lock.
// A build that starts after a notice therefore includes every change so far, whichever process made it.
import type { Redis } from 'ioredis';
import { tryLock } from '../../build/catalog/storage/redis-lock.ts';
import { type OverlayNames, parsePendingField } from '../../build/catalog/storage/redis-overlay.ts';
import type { RunResult } from './scheduler.ts';

const ACK = `for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 1`;

export const DEFAULT_LOCK_TTL_MS = 30_000;

/** REBUILD_LOCK_TTL_MS: how long a dead builder blocks the others (renewed every third of it while alive). */
export function lockTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.REBUILD_LOCK_TTL_MS);
  return Number.isInteger(n) && n >= 300 ? n : DEFAULT_LOCK_TTL_MS;
}

export interface Changes {
  tools: string[];
  apis: string[];
}

export interface SharedRebuildOptions {
  client: Redis;
  names: OverlayNames;
  lockTtlMs?: number;
  /** Brings these records into the snapshot the build reads (api/catalog-sync.ts). */
  reload(changes: Changes): Promise<void>;
  /** Builds dist/ from the current snapshot with these tools changed. */
  build(aids: string[]): Promise<RunResult>;
  /** Wakes the local scheduler for another attempt. */
  poke(): void;
  log?: (line: string) => void;
}

export interface SharedRebuild {
  /** The scheduler's `run`: local aids are only a wake-up; what to build comes from the pending hash. */
  run(aids: string[]): Promise<RunResult>;
  /** Makes these tools pending (changes found at start that no notice announced, e.g. a git pull). */
  markPending(aids: string[]): Promise<void>;
  close(): void;
}

const SKIPPED: RunResult = { skipped: true, ms: 0, toolsCount: 0, incremental: false };

export function sharedRebuild(options: SharedRebuildOptions): SharedRebuild {
  const { client, names, reload, build, poke, log = (l: string) => console.error(l) } = options;
  const ttl = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;

  // The holder may die before building what this process skipped: look again after its lock would expire.
  const retryLater = () => {
    if (retry || closed) return;
    retry = setTimeout(
      () => {
        retry = null;
        if (!closed) poke();
      },
      ttl + Math.floor(Math.random() * 250),
    );
    retry.unref();
  };

  return {
    async run() {
      const lock = await tryLock(client, names.lock, ttl, log);
      if (!lock) {
        retryLater();
        return SKIPPED;
      }
      try {
        const pending = await client.hgetall(names.pending);
        const fields = Object.keys(pending);
        if (fields.length === 0) return SKIPPED;
        const changes: Changes = { tools: [], apis: [] };
        for (const f of fields) {
          const r = parsePendingField(f);
          if (r) changes[r.kind].push(r.id);
        }
        await reload(changes);
        const result = await build(changes.tools);
        await client.eval(ACK, 1, names.pending, ...Object.entries(pending).flat());
        return result;
      } finally {
        await lock.release();
      }
    },
    async markPending(aids) {
      if (aids.length === 0) return;
      const token = `start:${process.pid}:${Date.now()}`;
      await client.hset(names.pending, ...aids.flatMap((a) => [`tools:${a}`, token]));
    },
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
    },
  };
}
