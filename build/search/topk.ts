// Bounded top-k selection (binary heap holding the k best, worst on top): O(n log k) instead of
// sorting every candidate, which matters when a common word matches tens of thousands of tools.
// Both engines use it with the same order, score desc then id asc (engine.ts compares ids; the
// static client compares refs, which number documents in id order), so ties resolve identically.

export class TopK<T> {
  private heap: T[] = [];
  private readonly k: number;
  /** Negative when a ranks before b (a is better). */
  private readonly cmp: (a: T, b: T) => number;

  constructor(k: number, cmp: (a: T, b: T) => number) {
    this.k = k;
    this.cmp = cmp;
  }

  push(x: T): void {
    const h = this.heap;
    if (this.k <= 0) return;
    if (h.length < this.k) {
      h.push(x);
      this.up(h.length - 1);
    } else if (this.cmp(x, h[0]!) < 0) {
      h[0] = x;
      this.down(0);
    }
  }

  get size(): number {
    return this.heap.length;
  }

  /** The worst of the kept elements (the next to be evicted). */
  peek(): T | undefined {
    return this.heap[0];
  }

  /** Best first. */
  sorted(): T[] {
    return [...this.heap].sort(this.cmp);
  }

  // Heap order: the worst element (largest by cmp) at the root.
  private worse(i: number, j: number): boolean {
    return this.cmp(this.heap[i]!, this.heap[j]!) > 0;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.worse(l, m)) m = l;
      if (r < h.length && this.worse(r, m)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
