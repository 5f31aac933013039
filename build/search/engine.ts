// The API-side search engine: a compact in-memory inverted index with incremental writes.
// Layout: an immutable "base" segment in CSR form (one Int32Array of doc numbers, one Uint16Array
// of precomputed integer weights, one offsets array) plus a small mutable "delta" of postings
// written since the last compaction. upsert/remove touch only the delta, tombstones and live
// document frequencies, so a write is searchable at once; when the delta or the tombstones grow
// past a quarter of the index the segment is rebuilt from postings (no re-analysis).
// Scoring is rank.ts + plan.ts, shared with the static lunr client: same query, same order.
//
//   SearchEngine.build(docs, {expansions})  -> engine
//   engine.upsert(doc) / engine.remove(id)  -> visible to the next search
//   engine.search(query, {limit, filter, platform, kind}) -> [{id, score}] best first
//   empty query (or one with no searchable word): top `limit` by prior (reliability) desc
import { type AnalyzedDocument, analyzeDocument, averageLengths, type SearchDocument, type SearchKind, termWeights } from './documents.ts';
import { coverageOf, type Expansions, planQuery } from './plan.ts';
import { conceptWeights, coverageFactor, finalScore, type Hit, termCoefficient } from './rank.ts';
import { TopK } from './topk.ts';

export interface SearchOptions {
  /** Results to return; default 10, at most 1000. */
  limit?: number;
  /** Keep only ids for which this returns true (applied to scored candidates). */
  filter?: (id: string) => boolean;
  /** Keep only these platforms (registry names, or 'api'). */
  platform?: string | readonly string[];
  kind?: SearchKind;
}

export interface EngineOptions {
  /** Expansion table (expand.ts learnExpansions); empty when omitted. */
  expansions?: Expansions;
  /** Field length averages for BM25; default: measured on the build documents, then frozen. */
  avgLens?: number[];
  /** analyzeDocument() of each build document, when the caller already has it (saves a pass). */
  analyzed?: readonly AnalyzedDocument[];
}

interface Delta { docs: number[]; w: number[] }

export class SearchEngine {
  readonly expansions: Expansions;
  readonly avgLens: readonly number[];
  private termIds = new Map<string, number>();
  private df = new Int32Array(1024);
  // Base segment (CSR): postings of term t are baseDocs/baseW[baseStart[t] .. baseStart[t+1]).
  private baseStart = new Int32Array(1);
  private baseDocs = new Int32Array(0);
  private baseW = new Uint16Array(0);
  private baseTermCount = 0;
  private delta = new Map<number, Delta>();
  private deltaPostings = 0;
  // Documents, by internal number.
  private ids: string[] = [];
  private priors: number[] = [];
  private platformOf = new Uint8Array(1024);
  private kindOf = new Uint8Array(1024);
  private alive = new Uint8Array(1024);
  private docTerms: Int32Array[] = [];
  private byId = new Map<string, number>();
  private platformCodes = new Map<string, number>();
  private platformNames: string[] = [];
  private live = 0;
  private dead = 0;
  private priorCache = new Map<string, Hit[]>();
  // Per-query scratch, sized to the document capacity.
  private acc = new Float64Array(1024);
  private origMask = new Int32Array(1024);
  private expMask = new Int32Array(1024);
  private seen = new Uint8Array(1024);
  private touched = new Int32Array(1024);

  private constructor(expansions: Expansions, avgLens: number[]) {
    this.expansions = expansions;
    this.avgLens = avgLens;
  }

  static build(docs: readonly SearchDocument[], opts: EngineOptions = {}): SearchEngine {
    const unique = [...new Map(docs.map((d) => [d.id, d])).values()];
    const analyzed = opts.analyzed && opts.analyzed.length === unique.length && unique.length === docs.length ? opts.analyzed : unique.map(analyzeDocument);
    const e = new SearchEngine(opts.expansions ?? new Map(), opts.avgLens ?? averageLengths(analyzed));
    const perDoc: [number, number][][] = [];
    unique.forEach((doc, i) => {
      const d = e.allocDoc(doc);
      const tw = termWeights(analyzed[i]!, e.avgLens).map(([t, w]) => [e.termId(t), w] as [number, number]);
      perDoc.push(tw);
      e.docTerms[d] = Int32Array.from(tw, ([t]) => t);
      for (const [t] of tw) e.df[t] = (e.df[t] ?? 0) + 1;
    });
    e.writeBase(perDoc);
    return e;
  }

  get size(): number {
    return this.live;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  stats(): { docs: number; terms: number; postings: number; deltaPostings: number; tombstones: number } {
    return { docs: this.live, terms: this.termIds.size, postings: this.baseDocs.length + this.deltaPostings, deltaPostings: this.deltaPostings, tombstones: this.dead };
  }

  /** Insert or replace one document; searchable when this returns. */
  upsert(doc: SearchDocument): void {
    const old = this.byId.get(doc.id);
    if (old !== undefined) this.kill(old);
    const d = this.allocDoc(doc);
    const tw = termWeights(analyzeDocument(doc), this.avgLens);
    const tids = new Int32Array(tw.length);
    tw.forEach(([term, w], i) => {
      const t = this.termId(term);
      tids[i] = t;
      this.df[t] = (this.df[t] ?? 0) + 1;
      let p = this.delta.get(t);
      if (!p) this.delta.set(t, (p = { docs: [], w: [] }));
      p.docs.push(d);
      p.w.push(w);
    });
    this.deltaPostings += tw.length;
    this.docTerms[d] = tids;
    this.maybeCompact();
  }

  /** Remove one document; returns false when the id is unknown. */
  remove(id: string): boolean {
    const d = this.byId.get(id);
    if (d === undefined) return false;
    this.kill(d);
    this.maybeCompact();
    return true;
  }

  search(query: string, opts: SearchOptions = {}): Hit[] {
    const limit = Math.max(0, Math.min(1000, Math.floor(opts.limit ?? 10)));
    if (limit === 0) return [];
    const platforms = this.platformFilter(opts.platform);
    const kind = opts.kind === undefined ? -1 : opts.kind === 'api' ? 1 : 0;
    const plan = planQuery(query, this.expansions);
    if (!plan.terms.length) return this.topByPrior(limit, platforms, kind, opts.filter);

    const { acc, origMask, expMask, seen, touched, alive, platformOf, kindOf, baseDocs, baseW } = this;
    let nt = 0;
    const n = this.live;
    // Hot loop: plain typed-array walks, no closures or allocation per posting.
    for (const pt of plan.terms) {
      const t = this.termIds.get(pt.term);
      if (t === undefined || !this.df[t]) continue;
      const c = termCoefficient(pt.qw, this.df[t]!, n);
      const { orig, exp } = pt;
      const p = this.delta.get(t);
      const segments = t < this.baseTermCount ? 1 : 0;
      for (let seg = 0; seg < 2; seg++) {
        let docs: ArrayLike<number>;
        let ws: ArrayLike<number>;
        let i: number;
        let end: number;
        if (seg === 0) {
          if (!segments) continue;
          docs = baseDocs;
          ws = baseW;
          i = this.baseStart[t]!;
          end = this.baseStart[t + 1]!;
        } else {
          if (!p) continue;
          docs = p.docs;
          ws = p.w;
          i = 0;
          end = p.docs.length;
        }
        for (; i < end; i++) {
          const d = docs[i]!;
          if (!alive[d]) continue;
          if (platforms !== null && !platforms.has(platformOf[d]!)) continue;
          if (kind >= 0 && kindOf[d] !== kind) continue;
          if (!seen[d]) {
            seen[d] = 1;
            touched[nt++] = d;
            acc[d] = 0;
            origMask[d] = 0;
            expMask[d] = 0;
          }
          acc[d]! += c * ws[i]!;
          origMask[d]! |= orig;
          expMask[d]! |= exp;
        }
      }
    }

    const weights = conceptWeights(plan.concepts.map((c) => { const t = this.termIds.get(c); return t === undefined ? 0 : this.df[t]!; }), plan.conceptScale, n);
    const wanted = plan.platform === null ? -1 : (this.platformCodes.get(plan.platform) ?? -2);
    const ids = this.ids;
    // Coverage factors depend only on the (orig, exp) masks: few distinct pairs per query.
    const covCache = new Map<number, number>();
    // Top-k over doc numbers; scores go into acc (no object per candidate). Candidates below the
    // current k-th score are skipped without touching the heap.
    const top = new TopK<number>(limit, (a, b) => acc[b]! - acc[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
    let floor = -Infinity;
    for (let i = 0; i < nt; i++) {
      const d = touched[i]!;
      seen[d] = 0;
      const key = origMask[d]! * 65536 + expMask[d]!;
      let cov = covCache.get(key);
      if (cov === undefined) covCache.set(key, (cov = coverageFactor(coverageOf(origMask[d]!, expMask[d]!, weights))));
      const score = finalScore(acc[d]!, cov, wanted === -1 || platformOf[d] === wanted);
      if (score < floor) continue;
      if (opts.filter && !opts.filter(ids[d]!)) continue;
      acc[d] = score;
      top.push(d);
      if (top.size === limit) floor = acc[top.peek()!]!;
    }
    return top.sorted().map((d) => ({ id: ids[d]!, score: acc[d]! }));
  }

  private topByPrior(limit: number, platforms: Set<number> | null, kind: number, filter?: (id: string) => boolean): Hit[] {
    // The empty listing is the most frequent request: cache it until the next write.
    const key = filter ? null : `${limit}|${platforms ? [...platforms].sort().join(',') : '*'}|${kind}`;
    const cached = key === null ? undefined : this.priorCache.get(key);
    if (cached) return cached.map((h) => ({ ...h }));
    const hits = this.scanByPrior(limit, platforms, kind, filter);
    if (key !== null) {
      if (this.priorCache.size > 64) this.priorCache.clear();
      this.priorCache.set(key, hits.map((h) => ({ ...h })));
    }
    return hits;
  }

  private scanByPrior(limit: number, platforms: Set<number> | null, kind: number, filter?: (id: string) => boolean): Hit[] {
    const { priors, ids } = this;
    const top = new TopK<number>(limit, (a, b) => priors[b]! - priors[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
    for (let d = 0; d < ids.length; d++) {
      if (!this.alive[d]) continue;
      if (platforms && !platforms.has(this.platformOf[d]!)) continue;
      if (kind >= 0 && this.kindOf[d] !== kind) continue;
      if (filter && !filter(ids[d]!)) continue;
      top.push(d);
    }
    return top.sorted().map((d) => ({ id: ids[d]!, score: priors[d]! }));
  }

  private platformFilter(p: SearchOptions['platform']): Set<number> | null {
    if (p === undefined) return null;
    const list = typeof p === 'string' ? [p] : p;
    return new Set(list.map((x) => this.platformCodes.get(x) ?? -1));
  }

  private termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.termIds.size;
      this.termIds.set(term, t);
      if (t >= this.df.length) this.df = grow(this.df, t + 1);
    }
    return t;
  }

  private allocDoc(doc: SearchDocument): number {
    this.priorCache.clear();
    const d = this.ids.length;
    if (d >= this.alive.length) this.growDocs(d + 1);
    let pc = this.platformCodes.get(doc.platform);
    if (pc === undefined) {
      pc = this.platformNames.length;
      if (pc > 255) throw new Error('too many platforms');
      this.platformCodes.set(doc.platform, pc);
      this.platformNames.push(doc.platform);
    }
    this.ids.push(doc.id);
    this.priors.push(doc.prior);
    this.platformOf[d] = pc;
    this.kindOf[d] = doc.kind === 'api' ? 1 : 0;
    this.alive[d] = 1;
    this.docTerms[d] = new Int32Array(0);
    this.byId.set(doc.id, d);
    this.live++;
    return d;
  }

  private kill(d: number): void {
    if (!this.alive[d]) return;
    this.priorCache.clear();
    this.alive[d] = 0;
    for (const t of this.docTerms[d] ?? []) this.df[t] = (this.df[t] ?? 1) - 1;
    this.docTerms[d] = new Int32Array(0);
    this.byId.delete(this.ids[d]!);
    this.live--;
    this.dead++;
  }

  private growDocs(min: number): void {
    const cap = Math.max(min, this.alive.length * 2);
    this.platformOf = grow(this.platformOf, cap);
    this.kindOf = grow(this.kindOf, cap);
    this.alive = grow(this.alive, cap);
    this.acc = new Float64Array(cap);
    this.origMask = new Int32Array(cap);
    this.expMask = new Int32Array(cap);
    this.seen = new Uint8Array(cap);
    this.touched = new Int32Array(cap);
  }

  private maybeCompact(): void {
    const base = this.baseDocs.length;
    if (this.deltaPostings > 10_000 + base / 4 || this.dead > 1_000 + this.live / 4) this.compact();
  }

  /** Rebuild the base segment from live postings, renumbering documents densely (order kept). */
  compact(): void {
    const remap = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    const priors: number[] = [];
    const docTerms: Int32Array[] = [];
    const platformOf = new Uint8Array(Math.max(1024, this.live * 2));
    const kindOf = new Uint8Array(platformOf.length);
    for (let d = 0; d < this.ids.length; d++) {
      if (!this.alive[d]) continue;
      const nd = ids.length;
      remap[d] = nd;
      ids.push(this.ids[d]!);
      priors.push(this.priors[d]!);
      docTerms.push(this.docTerms[d]!);
      platformOf[nd] = this.platformOf[d]!;
      kindOf[nd] = this.kindOf[d]!;
    }
    const terms = this.termIds.size;
    const start = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t++) start[t + 1] = start[t]! + Math.max(0, this.df[t] ?? 0);
    const docs = new Int32Array(start[terms]!);
    const w = new Uint16Array(docs.length);
    const fill = start.slice(0, terms);
    const emit = (t: number, d: number, wt: number) => {
      const nd = remap[d]!;
      if (nd < 0) return;
      const i = fill[t]!++;
      docs[i] = nd;
      w[i] = wt;
    };
    for (let t = 0; t < terms; t++) {
      if (t < this.baseTermCount) for (let i = this.baseStart[t]!; i < this.baseStart[t + 1]!; i++) emit(t, this.baseDocs[i]!, this.baseW[i]!);
      const p = this.delta.get(t);
      if (p) for (let i = 0; i < p.docs.length; i++) emit(t, p.docs[i]!, p.w[i]!);
    }
    this.ids = ids;
    this.priors = priors;
    this.docTerms = docTerms;
    this.byId = new Map(ids.map((id, i) => [id, i]));
    this.alive = new Uint8Array(platformOf.length).fill(1, 0, ids.length);
    this.platformOf = platformOf;
    this.kindOf = kindOf;
    this.growDocs(platformOf.length);
    this.baseStart = start;
    this.baseDocs = docs;
    this.baseW = w;
    this.baseTermCount = terms;
    this.delta.clear();
    this.deltaPostings = 0;
    this.dead = 0;
  }

  /** Bulk load: postings per document -> CSR base segment, doc numbers ascending within a term. */
  private writeBase(perDoc: [number, number][][]): void {
    const terms = this.termIds.size;
    const start = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t++) start[t + 1] = start[t]! + (this.df[t] ?? 0);
    const docs = new Int32Array(start[terms]!);
    const w = new Uint16Array(docs.length);
    const fill = start.slice(0, terms);
    perDoc.forEach((tw, d) => {
      for (const [t, wt] of tw) {
        const i = fill[t]!++;
        docs[i] = d;
        w[i] = wt;
      }
    });
    this.baseStart = start;
    this.baseDocs = docs;
    this.baseW = w;
    this.baseTermCount = terms;
  }
}

function grow<T extends Int32Array | Uint8Array>(a: T, min: number): T {
  const cap = Math.max(min, a.length * 2);
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}
