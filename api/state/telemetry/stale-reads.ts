// Counters shown next to a contract are secondary: while Redis is unreachable a read answers the last
// value this process saw (or zeros) instead of failing the lookup or listing it decorates. Reports
// still fail (503), so nothing is ever claimed stored that was not.

export function staleReads(maxEntries = 20_000) {
  const last = new Map<string, unknown>();
  let warnedAt = 0;
  const remember = (key: string, value: unknown) => {
    last.delete(key);
    last.set(key, value);
    if (last.size > maxEntries) last.delete(last.keys().next().value as string);
  };
  const warn = (error: unknown) => {
    if (Date.now() - warnedAt < 10_000) return;
    warnedAt = Date.now();
    console.error(`telemetry: Redis read failed, serving last known counters: ${(error as Error).message}`);
  };
  return {
    async read<T>(key: string, fresh: () => Promise<T>, empty: () => T): Promise<T> {
      try {
        const value = await fresh();
        remember(key, value);
        return value;
      } catch (error) {
        warn(error);
        return (last.get(key) as T | undefined) ?? empty();
      }
    },
    /** read() for several keys fetched together: `fresh` answers one value per key, in order. */
    async readMany<T>(keys: readonly string[], fresh: () => Promise<T[]>, empty: () => T): Promise<T[]> {
      try {
        const values = await fresh();
        for (const [i, key] of keys.entries()) remember(key, values[i]);
        return values;
      } catch (error) {
        warn(error);
        return keys.map((key) => (last.get(key) as T | undefined) ?? empty());
      }
    },
  };
}
