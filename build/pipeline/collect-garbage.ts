// Full garbage collections on request, to bound a build thread's heap high-water mark. V8 lets a heap
// grow to several times what is live before it collects, and it keeps the pages it freed for reuse by
// the same thread instead of giving them back to the system: a thread's peak heap stays in the
// process's resident memory until the thread ends. At 100,000 tools the main thread's heap reached
// 733-1,046 MB during the Eleventy batches with about 175 MB live. Node exposes gc() only under
// --expose-gc; setting the flag at run time makes it visible in contexts created afterwards (the
// approach jest's leak detector takes).
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * A check to call between steps of a long allocation-heavy run: it collects once the used heap has
 * grown `marginBytes` past what the last collection left (or past zero before any), so the heap stays
 * within live data plus the margin and a small build never pays for a collection.
 */
export function heapCeiling(marginBytes: number): () => boolean {
  let live = 0;
  return () => {
    if (getHeapStatistics().used_heap_size <= live + marginBytes) return false;
    collectGarbage();
    live = getHeapStatistics().used_heap_size;
    return true;
  };
}
