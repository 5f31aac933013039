// collectGarbage() must really collect (a dropped working set leaves the heap at once, without node
// running under --expose-gc), and heapCeiling() must collect only once the heap has grown by its margin
// past what the last collection left: the build relies on both to bound its threads' heaps
// (build/pipeline/site.ts between Eleventy batches, build/pipeline/worker-tasks.ts around the search index).
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectGarbage, heapCeiling } from '../../build/pipeline/collect-garbage.ts';

const MB = 1024 * 1024;
const used = () => getHeapStatistics().used_heap_size;
/** About `mb` MB of small objects on the heap. */
const workingSet = (mb: number) => Array.from({ length: mb * 12_000 }, (_, i) => ({ id: i, text: `entry ${i}` }));

describe('collectGarbage', () => {
  it('frees a dropped working set at once', () => {
    collectGarbage();
    const base = used();
    let big: unknown[] | null = workingSet(40);
    const held = used();
    expect(held - base).toBeGreaterThan(20 * MB);
    expect(big.length).toBeGreaterThan(0);
    big = null;
    collectGarbage();
    expect(used() - base).toBeLessThan((held - base) / 4);
  });
});

describe('heapCeiling', () => {
  it('never collects while the whole heap stays under its margin', () => {
    const bound = heapCeiling(used() + 200 * MB);
    const kept: unknown[] = workingSet(5);
    expect(bound()).toBe(false);
    expect(bound()).toBe(false);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('collects once the heap passes what is live plus its margin, then measures from what is live', () => {
    const bound = heapCeiling(20 * MB);
    // The first check measures from zero: with 30 MB of garbage on the heap it collects, and learns what is live.
    let first: unknown[] | null = workingSet(30);
    expect(first.length).toBeGreaterThan(0);
    first = null;
    expect(bound()).toBe(true);
    // Live data under the margin: no collection however often it is checked.
    const kept: unknown[] = workingSet(5);
    expect(bound()).toBe(false);
    expect(bound()).toBe(false);
    // Garbage past the margin: the next check collects it, and the heap is back near what is live.
    let garbage: unknown[] | null = workingSet(40);
    expect(garbage.length).toBeGreaterThan(0);
    garbage = null;
    const before = used();
    expect(bound()).toBe(true);
    expect(used()).toBeLessThan(before - 20 * MB);
    expect(bound()).toBe(false);
    expect(kept.length).toBeGreaterThan(0);
  });
});
