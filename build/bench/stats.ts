// Order statistics for figures the build shows (/mai-api) and the benchmarks print: one rule everywhere.

/**
 * Nearest-rank percentile, the rule of build/apis/tokens.ts `distribution`: the smallest value with at
 * least the fraction `p` (0-1) of the values at or below it; 0 when there are none.
 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

/** The lower median (of an even count, the smaller middle value: always one of the values); 0 when empty. */
export const median = (values: readonly number[]): number => percentile(values, 0.5);
