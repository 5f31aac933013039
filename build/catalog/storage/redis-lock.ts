// A lock in Redis with an expiry, for work exactly one of several processes may do at a time (rebuilding a
// shared dist/). SET NX PX takes it; the holder renews it while it works; release and renewal are Lua
// compare-and-act on the holder's own token, so a holder whose lock already expired (and was taken by
// another process) can never release or extend someone else's. A holder that dies (SIGKILL, power cut)
// stops renewing, and the lock expires after its TTL.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Redis } from 'ioredis';

/** Deletes KEYS[1] only while it still holds ARGV[1]; answers 1 when deleted, else 0. */
export const COMPARE_AND_DELETE =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
const RENEW =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

export interface HeldLock {
  /** `host:pid:random`: who holds it, readable with GET for operators (and tests). */
  readonly token: string;
  /** A renewal found the lock gone or taken: another process may be doing the same work now. */
  readonly lost: boolean;
  release(): Promise<void>;
}

export async function tryLock(
  client: Redis,
  key: string,
  ttlMs: number,
  log: (line: string) => void = console.error,
): Promise<HeldLock | null> {
  const token = `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  if ((await client.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return null;
  let lost = false;
  // Three renewals per TTL: one slow round trip or a short Redis hiccup does not lose the lock.
  const timer = setInterval(
    () => {
      client.eval(RENEW, 1, key, token, String(ttlMs)).then(
        (r) => {
          if (r !== 1) lose('it expired or was taken');
        },
        (error: Error) => log(`lock ${key}: renewal failed (${error.message}); retrying`),
      );
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  const lose = (why: string) => {
    if (lost) return;
    lost = true;
    clearInterval(timer);
    log(`lock ${key} lost (${why}); another process may run the same work`);
  };
  return {
    token,
    get lost() {
      return lost;
    },
    async release() {
      clearInterval(timer);
      // Best effort: if Redis is unreachable the lock simply expires.
      await client.eval(COMPARE_AND_DELETE, 1, key, token).catch(() => undefined);
    },
  };
}
