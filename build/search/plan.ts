// Query planning: raw query text -> the weighted term list both engines score. Pure and
// deterministic (same query + same expansion table = same plan), bundled into the browser client.
// Exports:
//   planQuery(raw, expansions, topicality?) -> QueryPlan
//   PLATFORM_WORDS             query words that express a platform preference instead of a topic
//   coverageOf(orig, exp, code, w)  IDF-weighted share of concepts a document matches (bitmasks)
import { absenceTerms } from './absence.ts';
import { directionPairs } from './direction.ts';
import { typeLiterals } from './literals.ts';
import { FILE_TERM, mentionsHeldFile, mentionsTwoFiles, TWO_FILES_TERM } from './file-mentions.ts';
import { FOLDER_TERM, mentionsOutputFolder } from './output-folder.ts';
import { joinPhrasalVerbs } from './phrasal.ts';
import { readQuestions } from './questions.ts';
import { readTerm } from './reads.ts';
import { heldValues, valuesTerm } from './values.ts';
import { DIR_FORWARD, DIR_READS_SOURCE, DIR_READS_TARGET, DIR_REVERSE, RANK } from './rank.ts';
import { derivationalKeys } from './stemmer.ts';
import { analyze, MAX_QUERY_CHARS, nameKey, normalizeText, stem } from './tokenize.ts';

/** term -> [[relatedTerm, weight in (0,1]], ...]; see expand.ts for how it is learned. */
export type Expansions = ReadonlyMap<string, readonly (readonly [string, number])[]>;

export interface PlanTerm {
  term: string;
  /** Query weight (1 for the words typed, lower for expansions). */
  qw: number;
  /** Bitmask of concepts this term matches as a typed word. */
  orig: number;
  /** Bitmask of concepts this term matches as an expansion. */
  exp: number;
  /**
   * Conversion-direction evidence (direction.ts, reads.ts; bits in rank.ts): a term saying a document converts the
   * asked way (`a>b`), reads a format the need names outside its targets (`<a`), or converts the other way (`b>a`,
   * reads `<b`); 0 for the rest. A term with weight 0 and no concept only marks documents other terms found
   * (rank.ts directionFactor).
   */
  dir: number;
}

export interface QueryPlan {
  /** Terms in scoring order; both engines add contributions in exactly this order. */
  terms: PlanTerm[];
  /**
   * The concepts: distinct typed words after stop words and platform words, in group order (a
   * concept's IDF weighs it in coverage).
   */
  concepts: string[];
  /**
   * Per concept: RANK.fillerWeight for generic words ("show", "library", "files"), else its topicality
   * (1 for a topic word, down to TOPICALITY.floor for a word entries never name themselves with).
   */
  conceptScale: number[];
  /** Per concept: whether it weighs nothing in coverage when no document holds it (rank.ts conceptWeights). */
  optional: boolean[];
  /** Registry the query asks for ("... in python"), or null. */
  platform: string | null;
}

/**
 * Words that say which registry, not which tool: they become a platform preference. "javascript"
 * and "typescript" are not among them: "javascript parser" and "typescript types" are topics.
 */
export const PLATFORM_WORDS: ReadonlyMap<string, string> = new Map([
  ['python', 'pypi'],
  ['pypi', 'pypi'],
  ['pip', 'pypi'],
  ['py', 'pypi'],
  ['python3', 'pypi'],
  ['npm', 'npm'],
  ['node', 'npm'],
  ['nodej', 'npm'],
  ['js', 'npm'],
]);

/**
 * Words that phrase almost any need ("make", "show", "library", "files"): kept, but at reduced
 * weight, so "show interactive maps in a web page" is about maps, not about showing pages. This
 * is a list of generic request vocabulary, not of topics; IDF cannot see it because these words
 * are rare in package summaries yet common in requests.
 */
const FILLER = new Set(
  [
    'show',
    'make',
    'use',
    'using',
    'create',
    'build',
    'get',
    'handle',
    'run',
    'work',
    'manage',
    'want',
    'need',
    'help',
    'do',
    'perform',
    'implement',
    'provide',
    'allow',
    'support',
    'easy',
    'easily',
    'simple',
    'quick',
    'quickly',
    'fast',
    'good',
    'best',
    'nice',
    'way',
    'library',
    'package',
    'tool',
    'module',
    'app',
    'application',
    'program',
    'something',
    'thing',
    'code',
    'file',
    'page',
    'framework',
    'sdk',
    'toolkit',
    'wrapper',
    'utility',
    'helper',
  ].map(stem),
);

export const MAX_GROUPS = 12;
/**
 * Share of the query's concepts a document covers, each concept weighted (by its IDF: matching
 * "toml" matters more than matching "files"). `orig`/`exp`/`code` are the document's bitmasks: concepts
 * matched by a typed word, by an expansion, and only in its commands and types.
 */
export function coverageOf(orig: number, exp: number, code: number, weights: readonly number[]): number {
  let got = 0;
  let all = 0;
  for (let g = 0; g < weights.length; g++) {
    const w = weights[g]!;
    all += w;
    const bit = 1 << g;
    if (orig & bit) got += w;
    else if (exp & bit) got += RANK.expansionCover * w;
    else if (code & bit) got += RANK.codeCover * w;
  }
  return all > 0 ? got / all : 1;
}

export interface PlanOptions {
  /** The caller said what it holds (the API's `inputs=`): its filter asks for a file placeholder, not the plan. */
  saysInputs?: boolean;
  /** Whether a term has documents in the index; every term has when omitted (the static client's first round). */
  known?: (term: string) => boolean;
}

/**
 * `topicality` (topicality.ts) scales each concept by how much its word names a topic; a word absent
 * from it counts 1.
 */
export function planQuery(
  raw: unknown,
  expansions: Expansions,
  topicality: ReadonlyMap<string, number> = new Map(),
  options: PlanOptions = {},
): QueryPlan {
  const typed = normalizeText(raw, MAX_QUERY_CHARS);
  const text = readQuestions(joinPhrasalVerbs(typeLiterals(typed)));
  const words = analyze(text, { name: true, joined: true, maxChars: MAX_QUERY_CHARS });
  let platform: string | null = null;
  const topical: string[] = [];
  for (const w of words) {
    const p = PLATFORM_WORDS.get(w);
    if (p) platform ??= p;
    else if (!topical.includes(w)) topical.push(w);
  }
  // A query made only of platform words ("python") is a topic after all.
  const concepts = (topical.length ? topical : [...new Set(words)]).slice(0, MAX_GROUPS);
  if (!topical.length) platform = null;

  const byTerm = new Map<string, PlanTerm>();
  const add = (term: string, qw: number, orig: number, exp: number, dir = 0) => {
    const t = byTerm.get(term);
    if (!t) byTerm.set(term, { term, qw, orig, exp, dir });
    else {
      t.qw = Math.max(t.qw, qw);
      t.orig |= orig;
      t.exp |= exp;
      t.dir |= dir;
    }
  };
  const conceptScale = concepts.map((c) =>
    FILLER.has(c) && concepts.length > 1 ? RANK.fillerWeight : (topicality.get(c) ?? 1),
  );
  concepts.forEach((c, g) => {
    add(c, conceptScale[g]!, 1 << g, 0);
  });
  // A bound on expansion terms per query, shared out over its concepts: every term may cost the
  // static client one more shard, and the first query must stay under its byte budget.
  const share = Math.floor(RANK.maxExpansionTerms / Math.max(1, concepts.length));
  const perConcept = Math.max(1, Math.min(RANK.maxExpansionsPerConcept, share));
  concepts.forEach((c, g) => {
    const rel = expansions.get(c) ?? [];
    let n = 0;
    for (const [t, w] of rel) {
      if (n >= perConcept) break;
      if (PLATFORM_WORDS.has(t)) continue;
      // A derivational relative (validation for "validate", stemmer.ts) covers the concept as the typed
      // word would (Porter made them one term), at its lower query weight.
      const typed = sameFamily(c, t);
      add(t, w * RANK.expansionWeight * conceptScale[g]!, typed ? 1 << g : 0, typed ? 0 : 1 << g);
      n++;
    }
  });
  // Conversion directions ("html page into markdown" → html>markdown): bonus terms, not concepts, so a tool
  // for the reverse conversion is not helped by them.
  // Their sources as read terms (reads.ts): a tool that reads the format to convert from gains.
  // The reverse conversion's terms (`b>a`, reading `<b`) score nothing: they mark the documents that convert the
  // other way, which rank.ts directionFactor ranks down unless they also convert the asked way or read a format the
  // need names outside its targets ("a PNG image to WebP" reads as image>webp; a converter reading PNG and WebP is
  // no reverse tool). Only between two formats that documents read: "add a file to a zip archive" (add>zip) names
  // no conversion, and "decode this base64 string back to text" (string>text) none a format tells apart.
  const known = options.known ?? (() => true);
  const pairs = directionPairs(text).map((p) => p.split('>') as [string, string]);
  const targets = new Set(pairs.map(([, to]) => to));
  let reverse = false;
  for (const [from, to] of pairs) {
    add(`${from}>${to}`, RANK.directionWeight, 0, 0, DIR_FORWARD);
    const source = readTerm(from);
    if (source) add(source, RANK.sourceWeight, 0, 0, DIR_READS_SOURCE);
    const target = readTerm(to);
    if (!source || !target || !known(source) || !known(target)) continue;
    add(`${to}>${from}`, 0, 0, 0, DIR_REVERSE);
    add(target, 0, 0, 0, DIR_READS_TARGET);
    reverse = true;
  }
  if (reverse)
    for (const c of concepts) {
      const source = targets.has(c) ? null : readTerm(c);
      if (source && known(source)) add(source, 0, 0, 0, DIR_READS_SOURCE);
    }
  const optional = concepts.map(() => false);
  // One more concept that weighs nothing when no document holds it (rank.ts conceptWeights), its terms at query
  // weight `qw` (0: it moves coverage alone).
  const optionalConcept = (terms: readonly string[], scale: number, qw: number) => {
    if (!terms.length || concepts.length === 0 || concepts.length >= MAX_GROUPS) return;
    const g = concepts.length;
    concepts.push(terms[0]!);
    conceptScale.push(scale);
    optional.push(true);
    for (const term of terms) add(term, qw, 1 << g, 0);
  };
  // What the need says is absent ("images with no alt text" → -alt -text, absence.ts), its terms its words: a tool
  // about the thing itself ("images (src and alt)") covers less than one about its absence.
  optionalConcept(absenceTerms(text), RANK.absenceWeight, RANK.absenceWeight);
  // A file the need says it holds (file-mentions.ts), which commands that read a file hold.
  optionalConcept(!options.saysInputs && mentionsHeldFile(typed) ? [FILE_TERM] : [], RANK.heldFileWeight, 0);
  // Two files it holds ("pack two files into …"), which commands with two file placeholders hold.
  optionalConcept(!options.saysInputs && mentionsTwoFiles(typed) ? [TWO_FILES_TERM] : [], RANK.heldFileWeight, 0);
  // A folder the need says its results go into (output-folder.ts), which commands with a folder placeholder hold.
  optionalConcept(!options.saysInputs && mentionsOutputFolder(typed) ? [FOLDER_TERM] : [], RANK.outputFolderWeight, 0);
  // The values the need holds (values.ts): a command that cannot take as many covers less.
  const held = heldValues(typed);
  optionalConcept(held > 0 ? [valuesTerm(held)] : [], RANK.valuesWeight, RANK.valuesWeight);
  // Exact name: "js-yaml", "sharp", "sendgrid mail". A bonus term, not a concept.
  const key = nameKey(typed);
  // Only alongside a searchable word: "the" or "+-" alone is an empty query, not a name lookup.
  if (key && concepts.length >= 1 && concepts.length <= 4) add(`=${key}`, RANK.exactNameWeight, 0, 0);
  // Typed words first, then by weight desc, then alphabetically: a fixed order both engines share.
  const terms = [...byTerm.values()].sort((a, b) => {
    const ao = a.orig ? 0 : 1;
    const bo = b.orig ? 0 : 1;
    return ao - bo || b.qw - a.qw || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);
  });
  return { terms, concepts, conceptScale, optional, platform };
}

/** A term that only marks documents other terms found (no weight, no concept): see PlanTerm.dir. */
export const marksOnly = (t: PlanTerm): boolean => t.qw === 0 && t.orig === 0 && t.exp === 0;

function sameFamily(a: string, b: string): boolean {
  const keys = derivationalKeys(a);
  return derivationalKeys(b).some((k) => keys.includes(k));
}
