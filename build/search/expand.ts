// Query expansion table, learned at build time from the documents themselves.
// Agents describe needs ("read excel files"); summaries describe tools ("SheetJS spreadsheet
// parser"). Sources of related terms, all general (no query -> package lists):
//   1. co-occurrence: b is a related term of a when the documents that mention b often mention
//      a too (xlsx -> excel, bcrypt/zxcvbn -> password, diff -> compare), with lift >= 4, P(a|b) >= 0.1
//      and support from >= 3 distinct summaries of packages with 3 different leading name words
//      (one publisher's family, @putout/plugin-remove-*, is one witness, not thirty); ranked by
//      shrunk P(a|b) x log support.
//   2. morphology: agent nouns (parser/parse, reader/read, logger/log), kept when a summary uses
//      both forms (not newer/new, drawer/draw, jitter/jit), and derivational families
//      (validate/validation/validator: terms are inflectional stems only, stemmer.ts);
//   3. optional WordNet synonyms (wordnet.ts, opts.synonyms), kept only when the corpus uses both
//      words in similar company. Measured: no gain on our query sets, so the build omits it.
// Exports:
//   learnExpansions(analyzedDocs, opts?) -> Expansions (term -> [[term, weight]...], best first);
//                                           the same table for the same documents in any order
//   expansionsToJSON(exp) / expansionsFromJSON(json)
//   readExpansions(file) -> the table a static build wrote (dist/search/expansions.json)
import { readFileSync } from 'node:fs';
import { type AnalyzedDocument, fieldCount } from './documents.ts';
import type { Expansions } from './plan.ts';
import { PLATFORM_WORDS } from './plan.ts';
import { FIELD_NAMES } from './rank.ts';
import { derivationalKeys } from './stemmer.ts';

export const EXPAND = {
  /** Related terms kept per term (the query planner may use fewer: RANK.maxExpansionsPerConcept). */
  keep: 8,
  /** A term must occur in this many documents to be expanded or to be an expansion. */
  minDf: 3,
  /** Expansion targets in more than this share of documents add bytes and noise, not recall. */
  maxTargetShare: 0.02,
  minCo: 3,
  /** log2 lift: the pair must co-occur at least 2^minPmi times more often than chance. */
  minPmi: 2,
  /** Words in more than this share of documents match plenty as typed: no co-occurrence expansion. */
  maxSourceShare: 0.02,
  shrink: 5,
  /**
   * Minimum P(a|b): share of the target's documents that also mention the source. Low, because a
   * summary uses one of two synonyms, rarely both (diff -> compare: 0.07); the leading-name rule
   * below keeps the noise out that a low bar would let in.
   */
  minConfidence: 0.1,
  /** Distinct leading name words among the documents a pair co-occurs in (families count once). */
  minNames: 3,
  /** An agent noun and its base must share this many documents (logger~log, not newer~new). */
  minMorphCo: 1,
  coWeight: 0.6,
  maxWeight: 0.3,
  morphWeight: 0.8,
  /** Words that differ by a verbal suffix (stemmer.ts): validate/validation/validator, encrypt/encryption. */
  familyWeight: 0.9,
  synonymWeight: 0.5,
  /** Cosine of corpus co-occurrence profiles a WordNet pair needs to be trusted. */
  synonymMinCosine: 0.08,
  profileSize: 40,
};

// Fields whose words describe what a package is (not how it is installed).
const TEXT_FIELDS = (['name', 'task', 'tags'] as const).map((f) => FIELD_NAMES.indexOf(f));
const TASK = FIELD_NAMES.indexOf('task');
const NAME = FIELD_NAMES.indexOf('name');

export interface LearnOptions {
  /** Stemmed synonym pairs (e.g. from wordnet.ts); each is validated against the corpus. */
  synonyms?: ReadonlyMap<string, readonly string[]>;
}

export function learnExpansions(
  docs: readonly AnalyzedDocument[],
  opts: LearnOptions = {},
): Map<string, [string, number][]> {
  // Vocabulary of descriptive terms and, per document, its distinct term ids.
  const ids = new Map<string, number>();
  const names: string[] = [];
  const docTerms: Int32Array[] = [];
  // Per document, its leading name word (@putout/plugin-remove-empty -> putout): packages that share
  // it are one publisher's family or one ecosystem's plugins, and count as one witness of a pair.
  const leadList: number[] = [];
  const dfList: number[] = [];
  // Families of packages share one summary (@parcel/watcher-linux-x64, -darwin-arm64, ...): count
  // each distinct summary once, or a family looks like strong evidence for its own words.
  // Documents are read in id order, so the family member that counts, the term numbering and every
  // tie-break are the same whatever order the caller holds them in (API: reliability; static: id).
  const seenTask = new Set<string>();
  for (const d of [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const sig = d.terms.filter((_, k) => fieldCount(d.packed[k]!, TASK) > 0).join(' ');
    if (sig && seenTask.has(sig)) continue;
    seenTask.add(sig);
    const list: number[] = [];
    let lead = -1;
    for (let k = 0; k < d.terms.length; k++) {
      const term = d.terms[k]!;
      if (term.startsWith('=') || term.includes('>') || !TEXT_FIELDS.some((i) => fieldCount(d.packed[k]!, i) > 0))
        continue;
      let id = ids.get(term);
      if (id === undefined) {
        id = names.length;
        ids.set(term, id);
        names.push(term);
        dfList.push(0);
      }
      dfList[id] = (dfList[id] ?? 0) + 1;
      list.push(id);
      if (lead < 0 && fieldCount(d.packed[k]!, NAME) > 0) lead = id;
    }
    docTerms.push(Int32Array.from(list));
    leadList.push(lead);
  }
  const leads = Int32Array.from(leadList);
  const n = docTerms.length;
  const df = Int32Array.from(dfList);
  const maxSourceDf = Math.max(EXPAND.minDf, Math.floor(n * EXPAND.maxSourceShare));
  const maxTargetDf = Math.max(EXPAND.minDf, Math.floor(n * EXPAND.maxTargetShare));
  // Words only: numbers and version-like tokens relate to everything and mean nothing.
  const expandable = Uint8Array.from(names, (t) => (/^[\p{L}]{2,}$/u.test(t) && !PLATFORM_WORDS.has(t) ? 1 : 0));
  // Postings (doc lists, ascending) for terms frequent enough to be expanded.
  const postings = new Map<number, number[]>();
  docTerms.forEach((terms, d) => {
    for (const t of terms)
      if ((df[t] ?? 0) >= EXPAND.minDf) {
        let p = postings.get(t);
        if (!p) postings.set(t, (p = []));
        p.push(d);
      }
  });

  const out = new Map<string, Map<string, number>>();
  const put = (a: string, b: string, w: number) => {
    if (a === b || PLATFORM_WORDS.has(b)) return;
    let m = out.get(a);
    if (!m) out.set(a, (m = new Map()));
    m.set(b, Math.max(m.get(b) ?? 0, w));
  };

  // 1. Co-occurrence, one dense counter reused for every source term: O(sum of |doc|^2).
  // A target b is a good expansion of a when documents with b are often about a: P(a|b) high
  // (bcrypt -> password, xlsx -> excel), not merely when b is frequent next to a (secure, simple).
  const counts = new Int32Array(names.length);
  const witnesses = new LeadWitnesses(names.length, EXPAND.minNames);
  const touched: number[] = [];
  for (const [a, docsOfA] of postings) {
    const dfa = df[a] ?? 1;
    if (!expandable[a] || dfa > maxSourceDf) continue;
    for (const d of docsOfA)
      for (const b of docTerms[d] ?? []) {
        if (b === a || (df[b] ?? 0) < EXPAND.minDf) continue;
        if (counts[b] === 0) touched.push(b);
        counts[b] = (counts[b] ?? 0) + 1;
        witnesses.add(b, leads[d]!);
      }
    const cands: [number, number, number][] = [];
    for (const b of touched) {
      const co = counts[b] ?? 0;
      counts[b] = 0;
      const enough = witnesses.take(b);
      const dfb = df[b] ?? 1;
      if (!enough || co < EXPAND.minCo || dfb > maxTargetDf || !expandable[b]) continue;
      if (Math.log2((co * n) / (dfa * dfb)) < EXPAND.minPmi || co / dfb < EXPAND.minConfidence) continue;
      // Rank by shrunk confidence times support, so three copies of one niche package do not win.
      const shrunk = co / (dfb + EXPAND.shrink);
      cands.push([b, shrunk * Math.log2(1 + co), shrunk]);
    }
    touched.length = 0;
    cands.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    for (const [b, , conf] of cands.slice(0, EXPAND.keep)) {
      put(names[a]!, names[b]!, round3(Math.min(EXPAND.maxWeight, EXPAND.coWeight * conf)));
    }
  }

  // 2. Agent nouns the stemmer leaves alone: parser~pars(e), reader~read, logger~log, formatt(er)~format.
  // (Corpus contexts are too sparse to tell reactor from react reliably; the source-frequency cap
  // below keeps such accidents off common words.)
  for (const [term, id] of ids) {
    if ((df[id] ?? 0) < 2 || !expandable[id]) continue;
    for (const base of morphBases(term)) {
      const bid = ids.get(base);
      if (bid === undefined || (df[bid] ?? 0) < EXPAND.minDf) continue;
      if (sharedCount(postings.get(bid), docTerms, id) < EXPAND.minMorphCo) continue;
      if ((df[bid] ?? 0) <= maxTargetDf && (df[id] ?? 0) <= maxSourceDf) put(term, base, EXPAND.morphWeight);
      if ((df[id] ?? 0) <= maxTargetDf && (df[bid] ?? 0) <= maxSourceDf) put(base, term, EXPAND.morphWeight);
    }
  }

  // Derivational families (stemmer.ts derivationalKeys). No frequency caps: the family is spelled
  // out by the words, not guessed from company, and validate must still reach validation.
  const families = new Map<string, string[]>();
  for (const [term, id] of ids) {
    if ((df[id] ?? 0) < EXPAND.minDf || !expandable[id]) continue;
    for (const key of derivationalKeys(term)) {
      let f = families.get(key);
      if (!f) families.set(key, (f = []));
      f.push(term);
    }
  }
  for (const members of families.values())
    for (const a of members) for (const b of members) put(a, b, EXPAND.familyWeight);

  // 3. WordNet synonyms that the corpus uses in similar company.
  if (opts.synonyms) {
    const profiles = contextProfiles(postings, docTerms, df, n);
    for (const [a, syns] of opts.synonyms) {
      const aid = ids.get(a);
      if (aid === undefined || !expandable[aid]) continue;
      for (const b of syns) {
        const bid = ids.get(b);
        if (bid === undefined || !expandable[bid] || (df[bid] ?? 0) < EXPAND.minDf || (df[bid] ?? 0) > maxTargetDf)
          continue;
        const cos = cosine(profiles.get(aid), profiles.get(bid));
        if (cos >= EXPAND.synonymMinCosine) put(a, b, EXPAND.synonymWeight);
      }
    }
  }

  const table = new Map<string, [string, number][]>();
  for (const [a, m] of [...out].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const list = [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, EXPAND.keep);
    table.set(a, list);
  }
  return table;
}

function morphBases(term: string): string[] {
  const out: string[] = [];
  const m = /^([a-z]{3,})(?:er|or)$/.exec(term);
  if (m?.[1]) {
    const base = m[1];
    out.push(base, `${base}e`);
    if (/([b-df-hj-np-tv-z])\1$/.test(base)) out.push(base.slice(0, -1));
  }
  const dbl = /^([a-z]{3,}([b-df-hj-kmnp-rtv-y]))\2$/.exec(term); // formatt -> format
  if (dbl?.[1]) out.push(dbl[1]);
  return out;
}

/**
 * Per target term, the distinct leading name words of the documents it co-occurs in, counted up to
 * `need` (a flat table of the first need-1 seen, reset by take()).
 */
class LeadWitnesses {
  private readonly need: number;
  private readonly seen: Int32Array;
  private readonly count: Uint8Array;
  constructor(terms: number, need: number) {
    this.need = need;
    this.seen = new Int32Array(terms * Math.max(1, need - 1));
    this.count = new Uint8Array(terms);
  }
  add(term: number, lead: number): void {
    const c = this.count[term]!;
    if (c >= this.need) return;
    const base = term * (this.need - 1);
    for (let i = 0; i < c; i++) if (this.seen[base + i] === lead) return;
    if (c < this.need - 1) this.seen[base + c] = lead;
    this.count[term] = c + 1;
  }
  /** Whether the term has enough distinct witnesses; forgets them for the next source term. */
  take(term: number): boolean {
    const ok = this.count[term]! >= this.need;
    this.count[term] = 0;
    return ok;
  }
}

/** How many of the documents in `docs` also hold `term` (which may be too rare to have postings). */
function sharedCount(docs: readonly number[] | undefined, docTerms: readonly Int32Array[], term: number): number {
  let n = 0;
  for (const d of docs ?? []) if (docTerms[d]?.includes(term)) n++;
  return n;
}

// Each term's top-PMI co-terms, for the context similarity check of WordNet pairs.
function contextProfiles(
  postings: ReadonlyMap<number, readonly number[]>,
  docTerms: readonly Int32Array[],
  df: Int32Array,
  n: number,
): Map<number, Profile> {
  const profiles = new Map<number, Profile>();
  const counts = new Int32Array(df.length);
  const touched: number[] = [];
  for (const [a, docsOfA] of postings) {
    for (const d of docsOfA)
      for (const b of docTerms[d] ?? []) {
        if (b === a || (df[b] ?? 0) < EXPAND.minDf) continue;
        if (counts[b] === 0) touched.push(b);
        counts[b] = (counts[b] ?? 0) + 1;
      }
    const prof: [number, number][] = [];
    for (const b of touched) {
      const co = counts[b] ?? 0;
      counts[b] = 0;
      const pmi = Math.log2((co * n) / ((df[a] ?? 1) * (df[b] ?? 1)));
      if (co >= 2 && pmi > 1) prof.push([b, pmi]);
    }
    touched.length = 0;
    profiles.set(a, toProfile(prof));
  }
  return profiles;
}

interface Profile {
  ids: Int32Array;
  w: Float32Array;
  norm: number;
}

function toProfile(list: [number, number][]): Profile {
  const top = list
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, EXPAND.profileSize)
    .sort((x, y) => x[0] - y[0]);
  const w = Float32Array.from(top, ([, v]) => v);
  return { ids: Int32Array.from(top, ([k]) => k), w, norm: Math.sqrt(w.reduce((s, v) => s + v * v, 0)) };
}

function cosine(a: Profile | undefined, b: Profile | undefined): number {
  if (!a || !b || !a.norm || !b.norm) return 0;
  let dot = 0;
  for (let i = 0, j = 0; i < a.ids.length && j < b.ids.length; ) {
    const x = a.ids[i]!;
    const y = b.ids[j]!;
    if (x === y) dot += a.w[i++]! * b.w[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return dot / (a.norm * b.norm);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function expansionsToJSON(exp: Expansions): Record<string, [string, number][]> {
  const o: Record<string, [string, number][]> = {};
  for (const [k, v] of exp) o[k] = v.map(([t, w]) => [t, w]);
  return o;
}

export function expansionsFromJSON(json: Record<string, [string, number][]>): Map<string, [string, number][]> {
  return new Map(Object.entries(json));
}

/** The expansion table a static build wrote (expansions.json), for SearchEngine.build({expansions}). */
export function readExpansions(file: string): Expansions {
  return expansionsFromJSON(JSON.parse(readFileSync(file, 'utf8')) as Record<string, [string, number][]>);
}
