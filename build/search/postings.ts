// Postings of the API engine: an immutable "base" segment in CSR form (offsets, an Int32Array of
// document numbers, a Uint16Array of precomputed integer weights) plus a small mutable "delta"
// of postings written since the last compaction, and live document frequencies. Kept apart from
// engine.ts so the write path (add, drop, compact) is readable on its own; the engine's query
// loop reads the typed arrays directly (no callbacks in the hot path).
//   store.termId(term) / store.lookup(term); store.add(t, doc, w); store.drop(t)
//   store.load(perDoc) bulk-builds the base; store.compact(remap) folds the delta in

export interface Delta {
  docs: number[];
  w: number[];
}

export class PostingStore {
  readonly termIds = new Map<string, number>();
  /** Live document frequency per term id. */
  df = new Int32Array(1024);
  /** Base segment: postings of term t are baseDocs/baseW[baseStart[t] .. baseStart[t+1]). */
  baseStart = new Int32Array(1);
  baseDocs = new Int32Array(0);
  baseW = new Uint16Array(0);
  /** Terms covered by the base segment (newer term ids live only in the delta). */
  baseTermCount = 0;
  readonly delta = new Map<number, Delta>();
  deltaPostings = 0;

  get size(): number {
    return this.baseDocs.length + this.deltaPostings;
  }

  lookup(term: string): number | undefined {
    return this.termIds.get(term);
  }

  termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.termIds.size;
      this.termIds.set(term, t);
      if (t >= this.df.length) {
        const df = new Int32Array(Math.max(t + 1, this.df.length * 2));
        df.set(this.df);
        this.df = df;
      }
    }
    return t;
  }

  /** A posting written after the last compaction. */
  add(t: number, doc: number, w: number): void {
    this.df[t] = (this.df[t] ?? 0) + 1;
    let p = this.delta.get(t);
    if (!p) this.delta.set(t, (p = { docs: [], w: [] }));
    p.docs.push(doc);
    p.w.push(w);
    this.deltaPostings++;
  }

  /** One document holding term t was removed (its postings stay until compaction, tombstoned). */
  drop(t: number): void {
    this.df[t] = (this.df[t] ?? 1) - 1;
  }

  /** Bulk load: postings per document (doc numbers 0..n-1) -> base segment. */
  load(perDoc: readonly (readonly [number, number])[][]): void {
    for (const tw of perDoc) for (const [t] of tw) this.df[t] = (this.df[t] ?? 0) + 1;
    this.writeBase((emit) =>
      perDoc.forEach((tw, d) => {
        for (const [t, w] of tw) emit(t, d, w);
      }),
    );
  }

  /** Rebuild the base from base + delta, renumbering documents through `remap` (-1 = dead). */
  compact(remap: Int32Array): void {
    const { baseStart, baseDocs, baseW, baseTermCount, delta } = this;
    this.writeBase((emit) => {
      for (let t = 0; t < this.termIds.size; t++) {
        if (t < baseTermCount)
          for (let i = baseStart[t]!; i < baseStart[t + 1]!; i++) emit(t, remap[baseDocs[i]!]!, baseW[i]!);
        const p = delta.get(t);
        if (p) for (let i = 0; i < p.docs.length; i++) emit(t, remap[p.docs[i]!]!, p.w[i]!);
      }
    });
    this.delta.clear();
    this.deltaPostings = 0;
  }

  /** Counting sort into CSR; `each` must emit every live posting once, docs ascending per term. */
  private writeBase(each: (emit: (t: number, d: number, w: number) => void) => void): void {
    const terms = this.termIds.size;
    const start = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t++) start[t + 1] = start[t]! + Math.max(0, this.df[t] ?? 0);
    const docs = new Int32Array(start[terms]!);
    const w = new Uint16Array(docs.length);
    const fill = start.slice(0, terms);
    each((t, d, wt) => {
      if (d < 0) return;
      const i = fill[t]!++;
      docs[i] = d;
      w[i] = wt;
    });
    this.baseStart = start;
    this.baseDocs = docs;
    this.baseW = w;
    this.baseTermCount = terms;
  }
}
