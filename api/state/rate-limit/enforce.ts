// Spending one token of a rate limit, or refusing with `rate_limited` and when to retry.
import { CATALOG } from '../../messages.ts';
import { DomainError } from '../../services/errors.ts';
import type { RateLimiter } from './types.ts';

/** Throws `rate_limited` (with the seconds to wait) when the bucket of `key` is empty. */
export async function enforce(limiter: RateLimiter, key: string): Promise<void> {
  const d = await limiter.take(key);
  if (!d.allowed) {
    throw new DomainError('rate_limited', CATALOG.rateLimited(d.retryAfterS), d.retryAfterS);
  }
}
