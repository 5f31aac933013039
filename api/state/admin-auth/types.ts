// Wrong admin secrets per client, for the lockout (api/http/admin-guard.ts): one interface, kept in this
// process (memory.ts) or shared by every process on one Redis (redis.ts).

export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 60_000;

/** Wrong-secret bookkeeping per client: in-process (memory.ts) or shared (redis.ts). */
export interface AuthFailures {
  /** Seconds until the client may try again; 0 when it is not locked out. */
  lockedFor(client: string): Promise<number>;
  fail(client: string): Promise<void>;
}
