// Rate limits behind one interface: an in-process token bucket now; a Redis implementation (shared by
// several API processes) can replace it without touching the routes.
import { httpError } from '../../http/errors.ts';

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until one more request would be allowed (0 when allowed). */
  retryAfterS: number;
  remaining: number;
}

export interface RateLimiter {
  /** Takes one token from the bucket of `key`. */
  take(key: string): Promise<RateDecision>;
}

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

export function tokenBucketLimiter({ limit, windowMs = 60_000, maxKeys = 100_000, now = Date.now }: TokenBucketOptions): RateLimiter {
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
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil(((1 - b.tokens) * windowMs) / limit / 1000)), remaining: 0 };
    },
  };
}

/** RATE_LIMIT_TELEMETRY_PER_MIN: POSTs per minute per client and tool (default 60; 0 disables). */
export function telemetryRatePerMinute(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RATE_LIMIT_TELEMETRY_PER_MIN;
  if (raw === undefined || raw === '') return 60;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`RATE_LIMIT_TELEMETRY_PER_MIN must be a number >= 0, got ${JSON.stringify(raw)}`);
  return n;
}

/** Throws the 429 (with Retry-After) when the bucket of `key` is empty. */
export async function enforce(limiter: RateLimiter, key: string): Promise<void> {
  const d = await limiter.take(key);
  if (!d.allowed) {
    throw httpError(429, `Too many requests: retry after ${d.retryAfterS} s`, { 'retry-after': String(d.retryAfterS) });
  }
}
