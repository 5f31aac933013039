// The API-side search engine: a compact in-memory inverted index with incremental writes.
// Postings live in postings.ts (CSR base segment + small delta, typed arrays, integer weights);
// this file holds the document table and the query loop. upsert/remove touch only the delta,
// tombstones and live document frequencies, so a write is searchable at once; when the delta or
// the tombstones grow past a quarter of the index the base is rebuilt from postings (no
// re-analysis, milliseconds per 10k documents).
// Scoring is rank.ts + plan.ts, shared with the static lunr client: same query, same order.
//
//   createSearchIndex(docs, {expansions?, services?}) -> {engine, expansions, analyzed, docs}: adds
//       what the catalog knows about each document (knowledge.ts), learns the table if absent
//   SearchEngine.build(docs, {expansions})  -> engine
//   engine.upsert(doc) / engine.remove(id)  -> visible to the next search
//   engine.search(query, {limit, filter, platform, kind}) -> [{id, score}] best first
//   empty query (or one with no searchable word): top `limit` by prior (reliability) desc
import {
  type AnalyzedDocument,
  analyzeDocument,
  averageLengths,
  type SearchDocument,
  type SearchKind,
  termWeights,
} from './documents.ts';
import { coverageOf, type Expansions, marksOnly, planQuery } from './plan.ts';
import {
  conceptWeights,
  coverageFactor,
  directionFactor,
  finalScore,
  type Hit,
  isCodeOnly,
  postingValue,
  termCoefficient,
} from './rank.ts';
import { DocTable } from './doc-table.ts';
import { learnExpansions } from './expand.ts';
import { type KnowledgeOptions, withCatalogKnowledge } from './knowledge.ts';
import { PostingStore } from './postings.ts';
import { learnTopicality, type Topicality } from './topicality.ts';
import { TopK } from './topk.ts';

export interface SearchOptions {
  /** Results to return; default 10, at most 1000. */
  limit?: number;
  /** Keep only ids for which this returns true (applied to scored candidates). */
  filter?: (id: string) => boolean;
  /**
   * A factor in (0, 1] on the score of each kept candidate: how well it fits what the caller holds, which the
   * text cannot tell (tool-search.ts). The static search has no such option.
   */
  weight?: (id: string) => number;
  /** Keep only this platform (a registry name, or 'api'). */
  platform?: string;
  kind?: SearchKind;
  /** The caller said what it holds (the API's `inputs=`, file-mentions.ts); the static search never does. */
  saysInputs?: boolean;
}

export interface EngineOptions {
  /** Expansion table (expand.ts learnExpansions); empty when omitted. */
  expansions?: Expansions;
  /** Concept scales (topicality.ts); learned from the build documents when omitted, then frozen. */
  topicality?: Topicality;
  /** Field length averages for BM25; default: measured on the build documents, then frozen. */
  avgLens?: number[];
  /** analyzeDocument() of each build document, when the caller already has it (saves a pass). */
  analyzed?: readonly AnalyzedDocument[];
}

export class SearchEngine {
  readonly expansions: Expansions;
  readonly topicality: Topicality;
  readonly avgLens: readonly number[];
  private store = new PostingStore();
  private docs = new DocTable();
  private priorCache = new Map<string, Hit[]>();
  private knowledgeById = new Map<string, { about: string[]; nameParts: string[]; mentions: number }>();
  // Per-query scratch, sized to the document table's capacity.
  private acc = new Float64Array(0);
  private origMask = new Int32Array(0);
  private expMask = new Int32Array(0);
  private codeMask = new Int32Array(0);
  private dirMask = new Uint8Array(0);
  private seen = new Uint8Array(0);
  private touched = new Int32Array(0);

  private constructor(expansions: Expansions, topicality: Topicality, avgLens: number[]) {
    this.expansions = expansions;
    this.topicality = topicality;
    this.avgLens = avgLens;
  }

  static build(docs: readonly SearchDocument[], opts: EngineOptions = {}): SearchEngine {
    const unique = [...new Map(docs.map((d) => [d.id, d])).values()];
    const analyzed =
      opts.analyzed && opts.analyzed.length === unique.length && unique.length === docs.length
        ? opts.analyzed
        : unique.map(analyzeDocument);
    const e = new SearchEngine(
      opts.expansions ?? new Map(),
      opts.topicality ?? learnTopicality(analyzed),
      opts.avgLens ?? averageLengths(analyzed),
    );
    const perDoc: [number, number][][] = [];
    unique.forEach((doc, i) => {
      e.remember(doc);
      const tw = termWeights(analyzed[i]!, e.avgLens).map(([t, w]) => [e.store.termId(t), w] as [number, number]);
      perDoc.push(tw);
      e.docs.add(
        doc,
        Int32Array.from(tw, ([t]) => t),
      );
    });
    e.store.load(perDoc);
    return e;
  }

  get size(): number {
    return this.docs.live;
  }

  stats(): { docs: number; terms: number; postings: number; deltaPostings: number; tombstones: number } {
    return {
      docs: this.docs.live,
      terms: this.store.termIds.size,
      postings: this.store.size,
      deltaPostings: this.store.deltaPostings,
      tombstones: this.docs.dead,
    };
  }

  /** Insert or replace one document; searchable when this returns. */
  upsert(incoming: SearchDocument): void {
    const old = this.docs.byId.get(incoming.id);
    // What other entries say about a document is computed over the whole set at build time; a
    // write to the document itself keeps it (the next build recomputes it).
    const known = incoming.fields.about === undefined ? this.knowledgeById.get(incoming.id) : undefined;
    const doc = known
      ? {
          ...incoming,
          mentions: known.mentions,
          fields: { ...incoming.fields, about: known.about, nameParts: known.nameParts },
        }
      : incoming;
    this.remember(doc);
    if (old !== undefined) this.kill(old);
    this.priorCache.clear();
    const tw = termWeights(analyzeDocument(doc), this.avgLens);
    const tids = Int32Array.from(tw, ([term]) => this.store.termId(term));
    const d = this.docs.add(doc, tids);
    tw.forEach(([, w], i) => {
      this.store.add(tids[i]!, d, w);
    });
    this.maybeCompact();
  }

  /** Remove one document; returns false when the id is unknown. */
  remove(id: string): boolean {
    const d = this.docs.byId.get(id);
    if (d === undefined) return false;
    this.kill(d);
    this.maybeCompact();
    return true;
  }

  search(query: string, opts: SearchOptions = {}): Hit[] {
    const limit = Math.max(0, Math.min(1000, Math.floor(opts.limit ?? 10)));
    if (limit === 0) return [];
    // Platform code to keep (-1 for a platform no document has), or null for every platform.
    const platform = opts.platform === undefined ? null : (this.docs.platformCodes.get(opts.platform) ?? -1);
    const kind = opts.kind === undefined ? -1 : opts.kind === 'api' ? 1 : 0;
    const known = (term: string) => {
      const t = this.store.lookup(term);
      return t !== undefined && this.store.df[t]! > 0;
    };
    const plan = planQuery(query, this.expansions, this.topicality, { saysInputs: opts.saysInputs === true, known });
    if (!plan.terms.length) return this.topByPrior(limit, platform, kind, opts.filter);

    if (this.acc.length < this.docs.capacity) this.allocScratch();
    const { acc, origMask, expMask, codeMask, dirMask, seen, touched, store } = this;
    const { alive, platformOf, kindOf } = this.docs;
    const { baseDocs, baseW, baseStart, df } = store;
    let nt = 0;
    const n = this.docs.live;
    // Hot loop: plain typed-array walks, no closures or allocation per posting.
    for (const pt of plan.terms) {
      const t = store.lookup(pt.term);
      if (t === undefined || !df[t]) continue;
      const c = termCoefficient(pt.qw, df[t]!, n);
      const { orig, exp, dir } = pt;
      const marks = marksOnly(pt);
      const p = store.delta.get(t);
      const segments = t < store.baseTermCount ? 1 : 0;
      for (let seg = 0; seg < 2; seg++) {
        let docs: ArrayLike<number>;
        let ws: ArrayLike<number>;
        let i: number;
        let end: number;
        if (seg === 0) {
          if (!segments) continue;
          docs = baseDocs;
          ws = baseW;
          i = baseStart[t]!;
          end = baseStart[t + 1]!;
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
          if (platform !== null && platformOf[d] !== platform) continue;
          if (kind >= 0 && kindOf[d] !== kind) continue;
          if (!seen[d]) {
            if (marks) continue;
            seen[d] = 1;
            touched[nt++] = d;
            acc[d] = 0;
            origMask[d] = 0;
            expMask[d] = 0;
            codeMask[d] = 0;
            dirMask[d] = 0;
          }
          dirMask[d]! |= dir;
          const w = ws[i]!;
          acc[d]! += c * postingValue(w);
          if (isCodeOnly(w)) codeMask[d]! |= orig | exp;
          else {
            origMask[d]! |= orig;
            expMask[d]! |= exp;
          }
        }
      }
    }

    const weights = conceptWeights(
      plan.concepts.map((c) => {
        const t = store.lookup(c);
        return t === undefined ? 0 : df[t]!;
      }),
      plan.conceptScale,
      n,
      plan.optional,
    );
    const wanted = plan.platform === null ? -1 : (this.docs.platformCodes.get(plan.platform) ?? -2);
    const ids = this.docs.ids;
    // Coverage factors depend only on the (orig, exp) masks: few distinct pairs per query.
    const covCache = new Map<number, number>();
    // Top-k over doc numbers; scores go into acc (no object per candidate). Candidates below the
    // current k-th score are skipped without touching the heap.
    const top = new TopK<number>(
      limit,
      (a, b) => acc[b]! - acc[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0),
    );
    let floor = -Infinity;
    for (let i = 0; i < nt; i++) {
      const d = touched[i]!;
      seen[d] = 0;
      // Masks hold MAX_GROUPS (12) bits each: the key is exact.
      const key = (origMask[d]! * 4096 + expMask[d]!) * 4096 + codeMask[d]!;
      let cov = covCache.get(key);
      if (cov === undefined)
        covCache.set(key, (cov = coverageFactor(coverageOf(origMask[d]!, expMask[d]!, codeMask[d]!, weights))));
      const score = finalScore(acc[d]!, cov, wanted === -1 || platformOf[d] === wanted, directionFactor(dirMask[d]!));
      if (score < floor) continue;
      if (opts.filter && !opts.filter(ids[d]!)) continue;
      const weighted = opts.weight ? score * opts.weight(ids[d]!) : score;
      if (weighted < floor) continue;
      acc[d] = weighted;
      top.push(d);
      if (top.size === limit) floor = acc[top.peek()!]!;
    }
    return top.sorted().map((d) => ({ id: ids[d]!, score: acc[d]! }));
  }

  private topByPrior(limit: number, platform: number | null, kind: number, filter?: (id: string) => boolean): Hit[] {
    // The empty listing is the most frequent request: cache it until the next write.
    const key = filter ? null : `${limit}|${platform ?? '*'}|${kind}`;
    const cached = key === null ? undefined : this.priorCache.get(key);
    if (cached) return cached.map((h) => ({ ...h }));
    const hits = this.scanByPrior(limit, platform, kind, filter);
    if (key !== null) {
      if (this.priorCache.size > 64) this.priorCache.clear();
      this.priorCache.set(
        key,
        hits.map((h) => ({ ...h })),
      );
    }
    return hits;
  }

  private scanByPrior(limit: number, platform: number | null, kind: number, filter?: (id: string) => boolean): Hit[] {
    const { priors, ids, alive, platformOf, kindOf } = this.docs;
    const top = new TopK<number>(
      limit,
      (a, b) => priors[b]! - priors[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0),
    );
    for (let d = 0; d < ids.length; d++) {
      if (!alive[d]) continue;
      if (platform !== null && platformOf[d] !== platform) continue;
      if (kind >= 0 && kindOf[d] !== kind) continue;
      if (filter && !filter(ids[d]!)) continue;
      top.push(d);
    }
    return top.sorted().map((d) => ({ id: ids[d]!, score: priors[d]! }));
  }

  private remember(doc: SearchDocument): void {
    const { about = [], nameParts = [] } = doc.fields;
    if (!about.length && !nameParts.length && !doc.mentions) return;
    this.knowledgeById.set(doc.id, { about, nameParts, mentions: doc.mentions ?? 0 });
  }

  private kill(d: number): void {
    this.priorCache.clear();
    for (const t of this.docs.kill(d)) this.store.drop(t);
  }

  private allocScratch(): void {
    const cap = this.docs.capacity;
    this.acc = new Float64Array(cap);
    this.origMask = new Int32Array(cap);
    this.expMask = new Int32Array(cap);
    this.codeMask = new Int32Array(cap);
    this.dirMask = new Uint8Array(cap);
    this.seen = new Uint8Array(cap);
    this.touched = new Int32Array(cap);
  }

  private maybeCompact(): void {
    const { store, docs } = this;
    if (store.deltaPostings > 10_000 + store.baseDocs.length / 4 || docs.dead > 1_000 + docs.live / 4) this.compact();
  }

  /** Fold the delta and tombstones into a fresh base segment (documents keep their order). */
  compact(): void {
    this.store.compact(this.docs.compact());
  }
}

/** Analyze once, learn (or take) the expansion table, build the engine. */
export function createSearchIndex(
  raw: readonly SearchDocument[],
  opts: { expansions?: Expansions } & KnowledgeOptions = {},
): { engine: SearchEngine; expansions: Expansions; analyzed: AnalyzedDocument[]; docs: SearchDocument[] } {
  const docs = withCatalogKnowledge(raw, opts);
  const analyzed = docs.map(analyzeDocument);
  const expansions = opts.expansions ?? learnExpansions(analyzed);
  return { engine: SearchEngine.build(docs, { expansions, analyzed }), expansions, analyzed, docs };
}
