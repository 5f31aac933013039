// The rate limiter of one process: a token bucket per key, in memory (redis.ts shares one across processes).
import type { RateLimiter } from './types.ts';

export interface TokenBucketOptions {
  /** Bucket size, refilled in full over `windowMs`; 0 or less disables the limit. */
  limit: number;
  /** Refill period; one minute by default (contributions: an hour). */
  windowMs?: number;
  /** Most buckets kept in memory; the least recently refilled are dropped first (they are the fullest). */
  maxKeys?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function tokenBucketLimiter({
  limit,
  windowMs = 60_000,
  maxKeys = 100_000,
  now = Date.now,
}: TokenBucketOptions): RateLimiter {
  const buckets = new Map<string, Bucket>();
  return {
    async take(key) {
      if (limit <= 0) return { allowed: true, retryAfterS: 0, remaining: Number.POSITIVE_INFINITY };
      const t = now();
      const b = buckets.get(key) ?? { tokens: limit, at: t };
      // Multiply before dividing: exact refills for whole fractions of the window (no 0.9999… tokens).
      b.tokens = Math.min(limit, b.tokens + ((t - b.at) * limit) / windowMs);
      b.at = t;
      // Re-insert so Map order is least recently used first.
      buckets.delete(key);
      buckets.set(key, b);
      if (buckets.size > maxKeys) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { allowed: true, retryAfterS: 0, remaining: Math.floor(b.tokens) };
      }
      return {
        allowed: false,
        retryAfterS: Math.max(1, Math.ceil(((1 - b.tokens) * windowMs) / limit / 1000)),
        remaining: 0,
      };
    },
  };
}
