// collectGarbage() must really collect: a dropped working set leaves the heap at once, with no
// allocation to prompt V8, and without node running under --expose-gc.
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../build/pipeline/collect-garbage.ts';

describe('collectGarbage', () => {
  it('frees a dropped working set at once', () => {
    collectGarbage();
    const base = process.memoryUsage().heapUsed;
    let big: { id: number; text: string }[] | null = Array.from({ length: 400_000 }, (_, i) => ({
      id: i,
      text: `entry ${i} with some words`,
    }));
    const held = process.memoryUsage().heapUsed;
    expect(held - base).toBeGreaterThan(20 * 1024 * 1024);
    expect(big.length).toBe(400_000);
    big = null;
    collectGarbage();
    expect(process.memoryUsage().heapUsed - base).toBeLessThan((held - base) / 4);
  });
});
