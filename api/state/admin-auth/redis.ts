// The admin lockout shared by several API processes: a client's recent wrong secrets live in one Redis
// list per client (newest first, at most `max` kept, expiring with the window), updated and read by Lua on
// Redis's clock, so ten wrong guesses spread over ten instances lock the client out of all of them.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ADMIN } from '../../messages.ts';
import { DomainError } from '../../services/errors.ts';
import { type AuthFailures, FAILURE_WINDOW_MS, MAX_FAILURES } from './types.ts';
import { luaNowMs } from '../redis-clock.ts';

// KEYS[1] list; ARGV: max, windowMs, now (ms, or -1 for Redis's clock).
const CLOCK = luaNowMs('ARGV[3]');

const FAIL = `${CLOCK}
redis.call('LPUSH', KEYS[1], now)
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

// Seconds until the oldest of the last `max` failures leaves the window; 0 when fewer than `max` are in it.
const LOCKED_FOR = `${CLOCK}
local max, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local times = redis.call('LRANGE', KEYS[1], 0, max - 1)
if #times < max then return 0 end
local oldest = tonumber(times[max])
if oldest <= now - window then return 0 end
return math.max(1, math.ceil((oldest + window - now) / 1000))`;

type Script = (key: string, max: number, windowMs: number, now: number) => Promise<number>;

export interface RedisAuthFailuresOptions {
  client: Redis;
  prefix?: string;
  max?: number;
  windowMs?: number;
  /** Milliseconds since the epoch; Redis's clock when absent (tests pass their own). */
  now?: () => number;
}

export function redisAuthFailures({
  client,
  prefix = 'tcc:',
  max = MAX_FAILURES,
  windowMs = FAILURE_WINDOW_MS,
  now,
}: RedisAuthFailuresOptions): AuthFailures {
  if (!('tccAuthFail' in client)) {
    client.defineCommand('tccAuthFail', { numberOfKeys: 1, lua: FAIL });
    client.defineCommand('tccAuthLockedFor', { numberOfKeys: 1, lua: LOCKED_FOR });
  }
  const scripts = client as unknown as { tccAuthFail: Script; tccAuthLockedFor: Script };
  // Client keys are addresses (possibly forwarded text): hashed, so a key stays small and printable.
  const keyOf = (c: string) => `${prefix}admin-failures:${createHash('sha256').update(c).digest('hex').slice(0, 32)}`;
  const at = () => (now ? now() : -1);
  // Fails closed: while Redis cannot count wrong secrets, no secret is checked at all (503, not 500).
  const run = async (script: Script, c: string) => {
    try {
      return Number(await script.call(client, keyOf(c), max, windowMs, at()));
    } catch {
      throw new DomainError('unavailable', ADMIN.sharedStateDown, 5);
    }
  };
  return {
    lockedFor: (c) => run(scripts.tccAuthLockedFor, c),
    fail: async (c) => {
      await run(scripts.tccAuthFail, c);
    },
  };
}
