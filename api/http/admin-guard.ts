// Admin authentication: header X-Admin-Secret against ADMIN_SECRET, compared in constant time, with a
// lockout after repeated wrong secrets. Runs before any admin route reads its body, so an anonymous
// caller never makes the server parse 1 MB. The secret is never echoed, logged or put in a URL.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { ADMIN } from '../messages.ts';
import { DomainError } from '../services/errors.ts';
import type { AuthFailures } from '../state/admin-auth/types.ts';
import { type ClientOptions, clientIp } from './client.ts';

export const ADMIN_HEADER = 'x-admin-secret';

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
  if (!secret) throw new DomainError('disabled', ADMIN.disabled);
  const client = clientIp(event, deps.client);
  const wait = await deps.failures.lockedFor(client);
  // Checked before the secret: a locked-out client learns nothing, not even a right guess.
  if (wait > 0) throw new DomainError('rate_limited', ADMIN.locked(wait), wait);
  const given = event.req.headers.get(ADMIN_HEADER);
  if (given === null || given === '') throw new DomainError('unauthenticated', ADMIN.secretRequired);
  if (!secretMatches(given, secret)) {
    await deps.failures.fail(client);
    throw new DomainError('forbidden', ADMIN.secretWrong);
  }
}

/** The guard every admin route starts with, bound to the app's secret, lockout and client settings. */
export const requireAdminOf =
  (ctx: Pick<AppContext, 'config' | 'adminFailures' | 'client'>) =>
  (event: H3Event): Promise<void> =>
    requireAdmin(event, { secret: () => ctx.config.adminSecret, failures: ctx.adminFailures, client: ctx.client });
