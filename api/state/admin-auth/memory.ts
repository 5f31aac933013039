// Admin authentication: header X-Admin-Secret against ADMIN_SECRET, compared in constant time, with a
// lockout after repeated wrong secrets. Runs before any admin route reads its body, so an anonymous
// caller never makes the server parse 1 MB. The secret is never echoed, logged or put in a URL.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import { clientIp, type ClientOptions } from '../../http/client.ts';
import { httpError } from '../../http/errors.ts';

export const ADMIN_HEADER = 'x-admin-secret';
export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 60_000;

/** Wrong-secret bookkeeping per client: in-process here, shared by every process in admin-auth-redis.ts. */
export interface AuthFailures {
  /** Seconds until the client may try again; 0 when it is not locked out. */
  lockedFor(client: string): Promise<number>;
  fail(client: string): Promise<void>;
}

export function memoryAuthFailures(options: { max?: number; windowMs?: number; maxClients?: number; now?: () => number } = {}): AuthFailures {
  const { max = MAX_FAILURES, windowMs = FAILURE_WINDOW_MS, maxClients = 100_000, now = Date.now } = options;
  // Per client, the times of its recent failures (at most `max` kept): a sliding window.
  const failures = new Map<string, number[]>();
  const recent = (client: string, t: number) => (failures.get(client) ?? []).filter((at) => at > t - windowMs);
  return {
    async lockedFor(client) {
      const t = now();
      const times = recent(client, t);
      if (times.length < max) return 0;
      return Math.max(1, Math.ceil(((times[0] ?? t) + windowMs - t) / 1000));
    },
    async fail(client) {
      const t = now();
      const times = [...recent(client, t), t].slice(-max);
      failures.delete(client);
      failures.set(client, times);
      // Oldest-touched first in Map order: dropping it forgets the stalest attacker, never a fresh one.
      if (failures.size > maxClients) {
        const oldest = failures.keys().next().value;
        if (oldest !== undefined) failures.delete(oldest);
      }
    },
  };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Equal-length digests make timingSafeEqual usable whatever the lengths, and leak neither. */
export function secretMatches(given: string, secret: string): boolean {
  return timingSafeEqual(digest(given), digest(secret));
}

export interface AdminGuardDeps {
  /** Read per request, so a test (or a reload) can change it. */
  secret(): string | undefined;
  failures: AuthFailures;
  client: ClientOptions;
}

/**
 * Throws the right error unless the request carries the admin secret: 503 when admin is disabled,
 * 429 while the client is locked out, 401 without the header, 403 with a wrong one.
 */
export async function requireAdmin(event: H3Event, deps: AdminGuardDeps): Promise<void> {
  const secret = deps.secret();
  if (!secret) throw httpError(503, 'admin disabled');
  const client = clientIp(event, deps.client);
  const wait = await deps.failures.lockedFor(client);
  // Checked before the secret: a locked-out client learns nothing, not even a right guess.
  if (wait > 0) throw httpError(429, `Too many wrong admin secrets: retry after ${wait} s`, { 'retry-after': String(wait) });
  const given = event.req.headers.get(ADMIN_HEADER);
  if (given === null || given === '') throw httpError(401, 'admin secret required: send it in the X-Admin-Secret header');
  if (!secretMatches(given, secret)) {
    await deps.failures.fail(client);
    throw httpError(403, 'wrong admin secret');
  }
}
