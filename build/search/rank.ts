// The one scoring function. Both engines (API inverted index, static lunr shards in the browser)
// call exactly these functions with the same inputs in the same order, so the same query gives
// the same floating-point scores and therefore the same order.
//
// score(d) = text(d) * coverageFactor(d) * platformFactor(d), where
//   text(d)   = sum over query-plan terms t (in plan order) of  qw_t * idf(df_t, N) * w(d, t)
//   w(d, t)   = round(SCALE * sat(BM25F tf of t in d) * documentFactor(d)), an integer
//               precomputed at index time (that is what the static shards store)
//   documentFactor(d) = reliabilityFactor(reliability_score) * popularityFactor(popularity):
//               two separate factors. Reliability (a trust score in coarse bands) enters as
//               reliability^RELIABILITY_EXPONENT; popularity (download percentile within the
//               platform, or unknown) as exp(POPULARITY_WEIGHT * (h - 1)), h = log-scale
//               closeness to the top (see popularityLevel). Unknown popularity counts as the median.
//   coverage  = IDF-weighted share of the query's concepts (typed words, each with its
//               expansions) that d matches; a concept matched only by an expansion counts 0.7
// Baking the document factor into w keeps the static shards free of a per-document table and
// makes the combination multiplicative: a strong match beats a weak match by a popular or
// reliable package, because the factors move a score by at most their documented ranges.

export type FieldName = 'name' | 'key' | 'task' | 'tags' | 'commands' | 'types' | 'about';

/** Tunables; changing any of them changes both engines identically (they are read at build and query time). */
export const RANK: {
  k1: number;
  fields: Record<FieldName, { weight: number; b: number }>;
  scale: number;
  reliabilityExponent: number;
  popularityWeight: number;
  popularityUnknown: number;
  popularityTop: number;
  verifiedPopularity: number;
  verifiedCentrality: number;
  centralityWeight: number;
  centralitySaturation: number;
  maturityWeight: number;
  maturityMinor: number;
  coverageFloor: number;
  coverageExponent: number;
  otherPlatform: number;
  exactNameWeight: number;
  directionWeight: number;
  sourceWeight: number;
  reverseDirection: number;
  absenceWeight: number;
  heldFileWeight: number;
  outputFolderWeight: number;
  valuesWeight: number;
  fillerWeight: number;
  expansionCover: number;
  codeCover: number;
  expansionWeight: number;
  maxExpansionsPerConcept: number;
  maxExpansionTerms: number;
  contentFit: number;
  missingFile: number;
  binaryForText: number;
  formatMismatch: number;
  stubFactor: number;
} = {
  k1: 2.2,
  /** BM25F field weights and length normalisation. `key` is the exact-name field. */
  fields: {
    name: { weight: 1.5, b: 0.6 },
    key: { weight: 1.2, b: 0 },
    task: { weight: 1.0, b: 0.75 },
    tags: { weight: 1.5, b: 0.5 },
    commands: { weight: 0.3, b: 0.5 },
    types: { weight: 0.3, b: 0.5 },
    /** What other entries say about this one (knowledge.ts): words repeated 1 + log2(count) times. No length
     * normalisation: most entries have none, so the field's average length says nothing. */
    about: { weight: 0.05, b: 0 },
  },
  scale: 1000,
  /** reliabilityFactor = reliability^this: bands 0.72..0.97 move a score by at most 0.74^e. */
  reliabilityExponent: 2,
  /** popularityFactor = exp(weight * (level - 1)): the least popular document keeps exp(-weight). */
  popularityWeight: 1.5,
  /** Popularity assumed when a contract has none (a percentile): the median. */
  popularityUnknown: 0.5,
  /** Share of a platform that counts as "most popular" (popularityLevel 1). 0.05 ranked the corpus dev set a
   * little better but moved bundled-catalog answers to worse tools (franc -> a cloud SDK for language detection). */
  popularityTop: 0.01,
  /** The least popularity level a verified contract counts as (0.8: the top 2.5 % of its platform; factor >= 0.74). */
  verifiedPopularity: 0.8,
  /** centralityFactor = exp(weight * (level - 1)); an entry nobody names keeps exp(-weight). */
  centralityWeight: 1.5,
  /** Mentions at which centrality saturates (level 1). */
  centralitySaturation: 30,
  /** The least centrality level a verified contract counts as (0.8: about 15 naming entries; factor >= 0.74). */
  verifiedCentrality: 0.8,
  /** maturityFactor = exp(weight * (level - 1)): a 0.0.x release keeps exp(-weight). */
  maturityWeight: 1,
  /** A 0.x release at this minor version or later counts as mature (level 1), like 1.0 and later. */
  maturityMinor: 10,
  /** Floor and exponent of the concept-coverage factor (soft AND). */
  coverageFloor: 0.1,
  coverageExponent: 2,
  /** Multiplier for documents of another platform when the query names one ("... in python"). */
  otherPlatform: 0.55,
  /** Query weight of the exact-name term ("=jsyaml"); it is a bonus, not a concept. */
  exactNameWeight: 1.5,
  /** Query weight of a conversion-direction pair ("html>markdown", direction.ts); a bonus, not a concept. */
  directionWeight: 2,
  /** Query weight of the read term of a conversion's source format ("xml to yaml" → `<xml`, reads.ts); a bonus. */
  sourceWeight: 2,
  /**
   * Factor on a document that converts the reverse of the asked direction ("convert XML to YAML" and a library that
   * reads YAML, or converts YAML to XML) and neither converts the asked way nor reads the asked source: plan.ts
   * PlanTerm.dir. 0.15 to 0.3 moved the same agent dev needs, 0.5 and 0.7 fewer (README, session 14).
   */
  reverseDirection: 0.3,
  /** Scale of the absence concept of a need that says what is missing ("no alt text" → `-alt`, absence.ts). */
  absenceWeight: 2,
  /** Scale of the held-file concept of a need naming a file it holds ("md5sum of a file", file-mentions.ts). */
  heldFileWeight: 2,
  /** Scale of the output-folder concept of a need naming a folder to write into ("into a folder", output-folder.ts). */
  outputFolderWeight: 2,
  /** Scale of the values concept of a need holding data values (`#1`, `#2`: values.ts). */
  valuesWeight: 2,
  /** Query weight of generic request words ("show", "library", "files"); see plan.ts. */
  fillerWeight: 0.2,
  /** Coverage credit for a concept matched only through an expansion (a typed word counts 1). */
  expansionCover: 0.7,
  /**
   * Coverage credit for a concept a document matches only in its command or schema types (the words of its
   * program code and output format, `--json`, `JSON.stringify`), not in what it says it is for: a version checker
   * whose command prints JSON is not about JSON. Such matches still add to the text score.
   */
  codeCover: 0.3,
  /** Multiplier on the learned expansion weights (expand.ts). */
  expansionWeight: 1,
  maxExpansionsPerConcept: 6,
  /** Expansion terms per query in all (shared out over its concepts): bounds the static first query. */
  maxExpansionTerms: 24,
  /**
   * API search with held inputs only (the static search has no inputs filter): the factor on a tool that can
   * take a held text file only as its text (a `{text}` placeholder), against one that reads it as a file.
   */
  contentFit: 0.3,
  /**
   * API search with held inputs only: the factor on a tool whose command must read more files than the agent
   * holds (a two-image diff for a need with one image). Ranked down rather than left out: the agent may hold more
   * than it said.
   */
  missingFile: 0.3,
  /**
   * API search with held inputs only: the factor on a tool that reads only binary formats (reads.ts) when the
   * agent holds text files and no other file: a .docx reader cannot take the .txt it was handed.
   */
  binaryForText: 0.3,
  /**
   * API search with held formats only (`formats=`): the factor on a tool that declares the formats it reads and none
   * of them is a held file's: an XML file handed to a YAML reader.
   */
  formatMismatch: 0.3,
  /** The document factor of an entry that is not a tool to run (isStubName): type declarations, hash-named builds. */
  stubFactor: 0.5,
};

/**
 * Entries that are not a tool to run: type declarations of another package (`@types/react`, `types-requests`,
 * `boto3-stubs`, `mypy-boto3-s3`) and machine-named build artefacts (a name holding a hash or UUID segment).
 */
export function isStubName(name: string): boolean {
  const n = name.toLowerCase();
  if (/^@types\/|^types-|-stubs$|^mypy-boto3-/.test(n)) return true;
  return n
    .split(/[-/@_.]+/)
    .some((seg) => seg.length >= 8 && /^[0-9a-f]+$/.test(seg) && /\d/.test(seg) && /[a-f]/.test(seg));
}

export const FIELD_NAMES = Object.keys(RANK.fields) as FieldName[];

export interface Hit {
  id: string;
  score: number;
}

export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function reliabilityFactor(reliability: number): number {
  const r = Number.isFinite(reliability) ? Math.min(1, Math.max(0.05, reliability)) : 0.5;
  return r ** RANK.reliabilityExponent;
}

/**
 * Popularity on a log scale of the share of packages downloaded more, saturating at the top
 * RANK.popularityTop share (with 0.01: 1 for the top 1%, 0.5 for the top 10%, 0.15 for the
 * median, 0 for the least downloaded).
 */
export function popularityLevel(popularity: number | null | undefined): number {
  const known = typeof popularity === 'number' && Number.isFinite(popularity);
  const p = known ? Math.min(1, Math.max(0, popularity)) : RANK.popularityUnknown;
  return Math.min(1, Math.log10(1 / Math.max(1 - p, RANK.popularityTop)) / -Math.log10(RANK.popularityTop));
}

/**
 * exp(weight * (level - 1)). A verified contract (it installed and did its task, or loaded, in the verification
 * sandbox) counts at least RANK.verifiedPopularity: popularity stands in for what nobody has checked, and a check
 * that passed says more about whether the tool works than its downloads do. Unverified entries keep their level.
 */
export function popularityFactor(popularity: number | null | undefined, verified = false): number {
  const level = popularityLevel(popularity);
  return Math.exp(RANK.popularityWeight * ((verified ? Math.max(level, RANK.verifiedPopularity) : level) - 1));
}

/**
 * Centrality: how many other entries name this one (plugins name their host), on a log scale
 * saturating at RANK.centralitySaturation mentions; exp(weight * (level - 1)). Like popularity, it stands in for
 * what nobody checked: a verified contract counts at least RANK.verifiedCentrality.
 */
export function centralityFactor(mentions: number, verified = false): number {
  const level = Math.min(1, Math.log1p(Math.max(0, mentions)) / Math.log1p(RANK.centralitySaturation));
  return Math.exp(RANK.centralityWeight * ((verified ? Math.max(level, RANK.verifiedCentrality) : level) - 1));
}

/**
 * Maturity from the released version: 1.0 and later (calendar versions too) are mature (level 1); a 0.x
 * release climbs with its minor version up to RANK.maturityMinor; an unknown or unparseable version is
 * neutral (level 1). exp(weight * (level - 1)).
 */
export function maturityFactor(version: string | null | undefined): number {
  const m = typeof version === 'string' ? /^v?(\d+)(?:\.(\d+))?/.exec(version.trim()) : null;
  if (!m) return 1;
  const major = Number(m[1]);
  const level = major >= 1 ? 1 : Math.min(1, Number(m[2] ?? 0) / RANK.maturityMinor);
  return Math.exp(RANK.maturityWeight * (level - 1));
}

/** What the per-document factor is computed from (SearchDocument / AnalyzedDocument carry these). */
export interface DocumentSignals {
  prior: number;
  popularity?: number | null;
  verified?: boolean;
  mentions?: number;
  version?: string | null;
  stub?: boolean;
}

/** The per-document part of every posting weight: reliability, popularity, centrality and maturity, separately. */
export function documentFactor(d: DocumentSignals): number {
  return (
    reliabilityFactor(d.prior) *
    popularityFactor(d.popularity, d.verified) *
    centralityFactor(d.mentions ?? 0, d.verified) *
    maturityFactor(d.version) *
    (d.stub ? RANK.stubFactor : 1)
  );
}

/**
 * Integer posting weight from the BM25F pseudo term frequency (already field-weighted and
 * length-normalised) and the document factor. Integers survive JSON exactly, so the static
 * shards and the API engine hold bit-identical weights.
 */
export function postingWeight(tfw: number, docFactor: number, codeOnly = false): number {
  const sat = tfw / (RANK.k1 + tfw);
  const w = Math.max(1, Math.round(RANK.scale * sat * docFactor));
  return codeOnly ? w | CODE_ONLY : w;
}

/**
 * Flag bit of a posting weight whose term occurs only in the document's commands and types (see codeCover). Set
 * on the stored integer (weights stay below RANK.scale), so both engines read it from the posting they already
 * hold: a Uint16 in the API engine, a lunr score in the static shards.
 */
export const CODE_ONLY = 0x8000;
export const postingValue = (stored: number) => stored & (CODE_ONLY - 1);
export const isCodeOnly = (stored: number) => (stored & CODE_ONLY) !== 0;

/** BM25F pseudo-tf of one term: sum over fields of weight * tf / (1 - b + b * len / avgLen). */
export function fieldTf(field: FieldName, tf: number, len: number, avgLen: number): number {
  const f = RANK.fields[field];
  const norm = 1 - f.b + f.b * (avgLen > 0 ? len / avgLen : 1);
  return (f.weight * tf) / norm;
}

/** Per-term query coefficient: the query weight times the term's IDF at the time of the query. */
export function termCoefficient(qw: number, df: number, n: number): number {
  return qw * idf(df, n);
}

/**
 * Concept weights for coverage: IDF of each concept's typed word (df 0 = rarest) times its scale. An `optional`
 * concept no document holds weighs nothing: entries without commands (the corpus, web APIs) cannot say how many
 * values they take (values.ts), and it must not lower all of them alike.
 */
export function conceptWeights(
  dfs: readonly number[],
  scale: readonly number[],
  n: number,
  optional: readonly boolean[] = [],
): number[] {
  return dfs.map((df, i) => (df === 0 && optional[i] ? 0 : idf(df, n) * (scale[i] ?? 1)));
}

/** Soft-AND factor from the concept-coverage share in [0,1]. */
export function coverageFactor(share: number): number {
  return RANK.coverageFloor + (1 - RANK.coverageFloor) * Math.min(1, share) ** RANK.coverageExponent;
}

/** Bits of a query term's conversion-direction evidence (plan.ts PlanTerm.dir). */
export const DIR_FORWARD = 1;
export const DIR_READS_SOURCE = 2;
export const DIR_REVERSE = 4;
export const DIR_READS_TARGET = 8;

/**
 * The factor of a document's conversion-direction evidence (`dir`, the OR of the PlanTerm.dir bits of the terms it
 * matched): RANK.reverseDirection when it shows only the reverse conversion (its task converts the other way,
 * `b>a`, or it reads the target, `<b`), else 1. Not reverse when it also converts the asked way or reads a format
 * the need names outside its targets.
 */
export function directionFactor(dir: number): number {
  if (dir & (DIR_FORWARD | DIR_READS_SOURCE)) return 1;
  return dir & (DIR_REVERSE | DIR_READS_TARGET) ? RANK.reverseDirection : 1;
}

/** Final score from the accumulated text score, coverageFactor(share), platform match and directionFactor. */
export function finalScore(text: number, covFactor: number, platformMatch: boolean, dirFactor = 1): number {
  return text * covFactor * (platformMatch ? 1 : RANK.otherPlatform) * dirFactor;
}

/** Empty-query order: reliability (prior) desc, then id asc. */
export function compareByPrior(a: { id: string; prior: number }, b: { id: string; prior: number }): number {
  return b.prior - a.prior || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
