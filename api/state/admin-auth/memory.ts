// The admin lockout's bookkeeping in this process: a sliding window of wrong secrets per client.
import { type AuthFailures, FAILURE_WINDOW_MS, MAX_FAILURES } from './types.ts';

export function memoryAuthFailures(
  options: { max?: number; windowMs?: number; maxClients?: number; now?: () => number } = {},
): AuthFailures {
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
