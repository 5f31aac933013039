// Rate limits behind one interface: a token bucket per key, in this process (memory.ts) or shared by every
// process on one Redis (redis.ts); one conformance suite covers both.

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

/** RATE_LIMIT_TELEMETRY_PER_MIN: POSTs per minute per client and tool (default 60; 0 disables). */
export function telemetryRatePerMinute(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RATE_LIMIT_TELEMETRY_PER_MIN;
  if (raw === undefined || raw === '') return 60;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`RATE_LIMIT_TELEMETRY_PER_MIN must be a number >= 0, got ${JSON.stringify(raw)}`);
  return n;
}
