// The static search client: answers a query from the files static-index.ts wrote, fetching only
// the term shards the query needs and the doc-store shards of the results. Runs in the browser
// (bundled by bundle.ts) and in Node (tests, eval, bench) with any `fetchJson`.
// Scoring is plan.ts + rank.ts, the code the API engine runs; lunr supplies the per-term posting
// weights (a one-term lunr query scores each document with exactly the stored integer weight).
//   const s = await StaticSearch.open(fetchJson)      fetchJson(relPath) -> parsed JSON
//   await s.search(query, {limit, platform})  -> [{id, score, name, task, platform, reliability}]
// Round trips: manifest (once), shards of the typed words, shards of their expansions, doc shards.
// Intended differences from the API engine (same query, same order otherwise):
//   - the static index is a snapshot of the last build; the API engine also reflects writes made
//     since (and its N and document frequencies move with them);
//   - no custom `filter` predicate or `kind` option, only `platform`;
//   - the empty query lists the manifest's top 50 (per platform too), not an arbitrary limit.
import lunr from 'lunr';
import { coverageOf, marksOnly, planQuery, type QueryPlan } from './plan.ts';
import {
  conceptWeights,
  coverageFactor,
  DIR_REVERSE,
  directionFactor,
  finalScore,
  isCodeOnly,
  postingValue,
  termCoefficient,
} from './rank.ts';
import type { DocRow, StaticManifest } from './static-index.ts';
import { MAX_QUERY_CHARS } from './tokenize.ts';
import { TopK } from './topk.ts';

export type FetchJson = (relPath: string) => Promise<unknown>;

export interface StaticHit {
  id: string;
  score: number;
  name: string;
  task: string;
  platform: string;
  reliability: number;
}

interface Shard {
  index: lunr.Index;
  exp: Record<string, [string, number][]>;
  /** Topicality of the shard's terms that are below 1 (topicality.ts). */
  topic: Record<string, number>;
}

interface Cand {
  ref: number;
  score: number;
}

const byScoreThenRef = (a: Cand, b: Cand) => b.score - a.score || a.ref - b.ref;

export class StaticSearch {
  private shards = new Map<number, Promise<Shard>>();
  private docShards = new Map<number, Promise<DocRow[]>>();

  readonly manifest: StaticManifest;
  private readonly fetchJson: FetchJson;

  private constructor(manifest: StaticManifest, fetchJson: FetchJson) {
    this.manifest = manifest;
    this.fetchJson = fetchJson;
  }

  static async open(fetchJson: FetchJson): Promise<StaticSearch> {
    return new StaticSearch((await fetchJson('manifest.json')) as StaticManifest, fetchJson);
  }

  /** Same contract as SearchEngine.search (minus custom filters): best first, ties by id. */
  async search(query: string, opts: { limit?: number; platform?: string } = {}): Promise<StaticHit[]> {
    const limit = Math.max(0, Math.min(1000, Math.floor(opts.limit ?? 10)));
    if (limit === 0) return [];
    const q = typeof query === 'string' ? query.slice(0, MAX_QUERY_CHARS * 4) : '';
    // Round 1: the typed words (and the exact-name key) give the concepts and their expansions.
    const bare = planQuery(q, new Map());
    if (!bare.terms.length) return this.top(limit, opts.platform);
    // A reverse conversion's pair term (`b>a`) waits for round 2: the plan keeps it only when both formats have
    // documents (known below), so a catalog without read formats fetches nothing for it.
    const first = bare.terms.filter((t) => t.dir !== DIR_REVERSE);
    await Promise.all(first.map((t) => this.shardFor(t.term)));
    const exp = new Map<string, [string, number][]>();
    const topic = new Map<string, number>();
    for (const c of bare.concepts) {
      const shard = await this.shardFor(c);
      // Own properties only: a query word like "constructor" must not find Object.prototype's.
      if (Object.hasOwn(shard.exp, c)) exp.set(c, shard.exp[c]!);
      if (Object.hasOwn(shard.topic, c)) topic.set(c, shard.topic[c]!);
    }
    // Terms with documents, among the first round's (the plan asks about conversion formats, which are there).
    const known = new Set<string>();
    for (const t of first) if (this.posting(await this.shardFor(t.term), t.term)) known.add(t.term);
    const plan = planQuery(q, exp, topic, { known: (term) => known.has(term) });
    // Round 2: shards of the expansion terms.
    await Promise.all(plan.terms.map((t) => this.shardFor(t.term)));
    const ranked = await this.score(plan, limit, opts.platform);
    return this.hydrate(ranked);
  }

  private async score(plan: QueryPlan, limit: number, platform?: string): Promise<Cand[]> {
    const n = this.manifest.n;
    const acc = new Map<number, { s: number; orig: number; exp: number; code: number; dir: number }>();
    const dfOf = new Map<string, number>();
    for (const pt of plan.terms) {
      const shard = await this.shardFor(pt.term);
      const posting = this.posting(shard, pt.term);
      if (!posting) continue;
      const df = Object.keys(posting.t).length;
      dfOf.set(pt.term, df);
      const c = termCoefficient(pt.qw, df, n);
      const marks = marksOnly(pt);
      const results = shard.index.query((query) => {
        query.term(pt.term, { usePipeline: false, boost: 1, fields: ['t'], wildcard: lunr.Query.wildcard.NONE });
      });
      for (const r of results) {
        const ref = Number.parseInt(r.ref, 36);
        if (platform !== undefined && this.platformOf(ref) !== platform) continue;
        let a = acc.get(ref);
        if (!a) {
          if (marks) continue;
          acc.set(ref, (a = { s: 0, orig: 0, exp: 0, code: 0, dir: 0 }));
        }
        a.dir |= pt.dir;
        a.s += c * postingValue(r.score); // r.score is the stored integer weight (query vector of norm 1)
        if (isCodeOnly(r.score)) a.code |= pt.orig | pt.exp;
        else {
          a.orig |= pt.orig;
          a.exp |= pt.exp;
        }
      }
    }
    const weights = conceptWeights(
      plan.concepts.map((c) => dfOf.get(c) ?? 0),
      plan.conceptScale,
      n,
      plan.optional,
    );
    const top = new TopK<Cand>(limit, byScoreThenRef);
    for (const [ref, a] of acc) {
      const match = plan.platform === null || this.platformOf(ref) === plan.platform;
      const cov = coverageFactor(coverageOf(a.orig, a.exp, a.code, weights));
      top.push({ ref, score: finalScore(a.s, cov, match, directionFactor(a.dir)) });
    }
    return top.sorted();
  }

  private posting(shard: Shard, term: string): { t: Record<string, object> } | undefined {
    const index = shard.index as unknown as {
      invertedIndex: Record<string, { t: Record<string, object> } | undefined>;
    };
    return Object.hasOwn(index.invertedIndex, term) ? index.invertedIndex[term] : undefined;
  }

  private async top(limit: number, platform?: string): Promise<StaticHit[]> {
    const refs = platform === undefined ? this.manifest.top : (this.manifest.topByPlatform[platform] ?? []);
    const hits = await this.hydrate(refs.slice(0, limit).map((ref) => ({ ref, score: 0 })));
    return hits.map((h) => ({ ...h, score: h.reliability }));
  }

  private async hydrate(cands: Cand[]): Promise<StaticHit[]> {
    const size = this.manifest.docShardSize;
    return Promise.all(
      cands.map(async ({ ref, score }) => {
        const row = (await this.docShard(Math.floor(ref / size)))[ref % size];
        if (!row) throw new Error(`static search: doc ${ref} missing`);
        const [id, name, task, platform, reliability] = row;
        return { id, score, name, task, platform, reliability };
      }),
    );
  }

  private platformOf(ref: number): string | undefined {
    // Runs are few for tools (refs follow ids, ids start with the platform); binary search anyway.
    const runs = this.manifest.platforms;
    let lo = 0;
    let hi = runs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [p, a, b] = runs[mid]!;
      if (ref < a) hi = mid - 1;
      else if (ref >= b) lo = mid + 1;
      else return p;
    }
    return undefined;
  }

  /** Index of the shard whose range holds `term` (binary search over first terms). */
  shardIndex(term: string): number {
    const s = this.manifest.shards;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid]! <= term) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private shardFor(term: string): Promise<Shard> {
    const i = this.shardIndex(term);
    let p = this.shards.get(i);
    if (!p) {
      p = this.fetchJson(`terms/${i}.json`).then((json) => {
        const j = json as { lunr: object; exp?: Record<string, [string, number][]>; topic?: Record<string, number> };
        return { index: lunr.Index.load(j.lunr), exp: j.exp ?? {}, topic: j.topic ?? {} };
      });
      p.catch(() => this.shards.delete(i));
      this.shards.set(i, p);
    }
    return p;
  }

  private docShard(j: number): Promise<DocRow[]> {
    let p = this.docShards.get(j);
    if (!p) {
      p = this.fetchJson(`docs/${j}.json`) as Promise<DocRow[]>;
      p.catch(() => this.docShards.delete(j));
      this.docShards.set(j, p);
    }
    return p;
  }
}
