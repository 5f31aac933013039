// The RateLimiter shared by several API processes: the same token bucket as the in-memory limiter, kept
// in a Redis hash and updated by one Lua script, so a client spreading requests over processes still
// gets one bucket per key and two processes can never both spend its last token. The clock is Redis's
// own (TIME), so API hosts with skewed clocks agree. Idle buckets expire once they would be full again.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimiter } from './types.ts';
import { luaNowMs } from '../redis-clock.ts';

const TAKE = `
local cap = tonumber(ARGV[1])${luaNowMs('ARGV[2]')}
local window = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = tonumber(b[1]) or cap
local at = tonumber(b[2]) or now
tokens = math.min(cap, tokens + math.max(0, now - at) * cap / window)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * window / cap)
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((cap - tokens) * window / cap) + 1000)
return {allowed, retry, math.floor(tokens)}
`;

type TakeFn = (key: string, limit: number, now: number, windowMs: number) => Promise<[number, number, number]>;

export interface RedisRateLimiterOptions {
  client: Redis;
  /** Bucket size, refilled in full over `windowMs`; 0 or less disables the limit. */
  limit: number;
  /** Refill period; one minute by default. */
  windowMs?: number;
  prefix?: string;
  /** Milliseconds since the epoch; Redis's clock when absent (tests pass their own). */
  now?: () => number;
}

let warnedAt = 0;
function warnOnce(error: unknown): void {
  if (Date.now() - warnedAt < 60_000) return;
  warnedAt = Date.now();
  console.error('rate limit: Redis unavailable, allowing requests:', (error as Error).message);
}

export function redisRateLimiter({
  client,
  limit,
  windowMs = 60_000,
  prefix = 'tcc:',
  now,
}: RedisRateLimiterOptions): RateLimiter {
  if (!('tccRateTake' in client)) client.defineCommand('tccRateTake', { numberOfKeys: 1, lua: TAKE });
  const take = (client as unknown as { tccRateTake: TakeFn }).tccRateTake.bind(client);
  // Keys hold caller-influenced text (a forwarded address): hash long ones so a key stays small.
  const keyOf = (key: string) =>
    `${prefix}ratelimit:${key.length > 120 ? createHash('sha256').update(key).digest('hex') : key}`;
  return {
    async take(key) {
      if (limit <= 0) return { allowed: true, retryAfterS: 0, remaining: Number.POSITIVE_INFINITY };
      let answer: [number, number, number];
      try {
        answer = await take(keyOf(key), limit, now ? now() : -1, windowMs);
      } catch (error) {
        // Fail open: a Redis outage must not turn every POST into an error; the report itself then
        // fails to store (503) anyway, so nothing is counted unlimited.
        warnOnce(error);
        return { allowed: true, retryAfterS: 0, remaining: 0 };
      }
      const [allowed, retryMs, remaining] = answer;
      return allowed === 1
        ? { allowed: true, retryAfterS: 0, remaining }
        : { allowed: false, retryAfterS: Math.max(1, Math.ceil(retryMs / 1000)), remaining: 0 };
    },
  };
}
