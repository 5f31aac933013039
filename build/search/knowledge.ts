// What the catalog says about an entry besides its own summary, indexed in the `about` field:
//   - mentions: plugins, wrappers and integrations name their central package and describe it
//     ("ESLint plugin for React", "pytest-cov: coverage plugin for pytest", a reporter that "posts
//     messages in Slack"), so the words shared by the entries that name a package say what it is
//     for, even when its own summary ("delightful testing", "API wrapper") does not;
//   - services: an SDK named after a web service (stripe, @slack/web-api, twilio) gets the
//     category and tags of that service's compiled API manifest (payments, messaging).
// Both are computed over the whole document set at build time, the same way for both engines.
//   withCatalogKnowledge(docs, {services?}) -> docs, each with fields.about (analysed terms) when known
//   serviceTopics(manifests)               -> service key -> topic words, for the option above
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SearchDocument } from './documents.ts';
import { learnVocabulary, nameParts } from './name-parts.ts';
import { analyzeProse } from './phrasal.ts';
import { analyze, isStopWord } from './tokenize.ts';

// Generic words that name nothing in particular, even capitalised ("Python", "API"), besides stop words.
const GENERIC = new Set([
  'python',
  'javascript',
  'typescript',
  'node',
  'node.js',
  'nodejs',
  'api',
  'the',
  'for',
  'with',
  'and',
  'from',
  'cli',
  'sdk',
  'library',
  'package',
  'module',
  'plugin',
  'tool',
  'tools',
  'types',
  'type',
  'client',
  'server',
  'web',
  'http',
  'json',
  'file',
  'files',
  'data',
  'code',
  'test',
  'core',
  'utils',
  'common',
  'config',
  'base',
]);
const STOP = { has: (w: string) => GENERIC.has(w) || isStopWord(w) };

export interface KnowledgeOptions {
  /** Service key (lower-case name, e.g. "stripe") -> topic words of its API manifests. */
  services?: ReadonlyMap<string, readonly string[]>;
  /**
   * What the last run worked out per entry from its name and summary alone (pure functions of them),
   * for a caller that runs again over nearly the same entries (the build worker's rebuilds): reused for
   * entries whose name and summary are unchanged, and replaced by this run's.
   */
  memo?: KnowledgeMemo;
}

export interface KnowledgeMemo {
  /** name + summary -> nameReferences(name, summary). */
  references: Map<string, ReadonlySet<string>>;
  /** name + summary -> the entry's own terms (summary, then name analysed as a name). */
  terms: Map<string, readonly string[]>;
}

export const emptyKnowledgeMemo = (): KnowledgeMemo => ({ references: new Map(), terms: new Map() });

/** Looks `key` up in last run's `before`, else computes it; either way keeps it in this run's `after`. */
function remembered<T>(
  before: Map<string, T> | undefined,
  after: Map<string, T> | undefined,
  key: string,
  make: () => T,
): T {
  const value = before?.get(key) ?? make();
  after?.set(key, value);
  return value;
}

/** Names shorter than this are not looked for in other entries (too many accidental matches). */
const MIN_NAME = 3;
/** A name mentioned by more entries than this is a common word ("test", "color"), not a package. */
const MAX_MENTIONS = 1500;
/** Plain lower-case uses in other summaries from which a name counts as a common word. */
const MIN_PLAIN = 10;
/** Terms kept per entry, most shared first. */
const MAX_TERMS = 12;
/** A term must be used by at least this share of the mentioning entries (and by 2). */
const MIN_SHARE = 0.08;
/** Repetitions of a term in the field for its count: 1 + log2(count), capped. */
const MAX_TF = 6;

// Words every plugin says about its host; they describe the relation, not the host.
const RELATION_WORDS = new Set([
  'us',
  'creat',
  'provid',
  'simpl',
  'easi',
  'fast',
  'js',
  'lib',
  'plugin',
  'extens',
  'wrapper',
  'integr',
  'support',
  'base',
  'type',
  'definit',
  'addon',
  'modul',
  'packag',
  'librari',
  'implement',
  'version',
  'fork',
  'util',
]);

/** Candidate base words of an inflected lower-case word: "mocks" mock, "scrolling" scroll, "compressed" compress. */
function inflectionBases(w: string): string[] {
  const m = /^([a-z]{3,}?)(?:s|es|ed|d|ing|er|ers)$/.exec(w);
  if (!m) return [];
  const base = m[1]!;
  return [base, `${base}e`, ...(/([b-df-hj-np-tv-z])\1$/.test(base) ? [base.slice(0, -1)] : [])];
}

/** Lower-cased name as other entries write it ("@slack/web-api" stays whole; "Flask_Login" -> "flask-login"). */
function mentionKey(name: string): string {
  return name.toLowerCase().replace(/[_\s]+/g, '-');
}

/**
 * Words of an entry that may name another entry. From its name: the name's segments and pairs of
 * segments ("eslint-plugin-react" names eslint and react, "@babel/core" babel). From its summary,
 * only words written as names: capitalised after the first word ("posts messages in Slack",
 * "ESLint rules") or holding a dot, digit or hyphen ("socket.io", "d3"), or quoted in backticks;
 * a plain lower-case word in a sentence ("send", "once", "map") is English, not a reference.
 */
export function nameReferences(name: string, summary: string): Set<string> {
  const out = new Set<string>();
  const addName = (w: string) => {
    const lw = w.toLowerCase().replace(/^[.\-/]+|[.\-/]+$/g, '');
    if (lw.length < MIN_NAME || STOP.has(lw)) return;
    out.add(lw);
    const parts = lw.split(/[-/@_.]+/);
    for (const p of parts) if (p.length >= MIN_NAME && !STOP.has(p)) out.add(p);
    for (let i = 0; i + 1 < parts.length; i++) {
      if (parts[i]!.length >= MIN_NAME && parts[i + 1]!.length >= MIN_NAME) out.add(`${parts[i]}-${parts[i + 1]}`);
    }
  };
  addName(name);
  const words = summary.split(/[\s,;:()[\]{}"'!?<>|*+=~^$#%&\\]+/u).filter(Boolean);
  words.forEach((raw, i) => {
    const ticked = /^`.+`$/.test(raw);
    const w = raw.replace(/`/g, '').replace(/^[.\-/]+|[.\-/]+$/g, '');
    if (w.length < MIN_NAME) return;
    const written = ticked || (i > 0 && /\p{Lu}/u.test(w)) || /[.\d-]/.test(w);
    if (!written) return;
    const lw = w.toLowerCase();
    if (!STOP.has(lw)) out.add(lw);
  });
  return out;
}

// Affixes that make an SDK's name from its service's name ("slack-sdk", "py-stripe", "notion-client").
const SDK_AFFIX = /^(?:py|python|node|js|go)-|[-.](?:sdk|api|client|node|js|python|py|rest|lib|official)$/;

/** The service an SDK is named after: "@slack/web-api" -> "slack", "stripe-python" -> "stripe". */
export function serviceKeyOf(name: string): string {
  let n = name.toLowerCase();
  const scoped = /^@([^/]+)\//.exec(n);
  if (scoped) return scoped[1]!.replace(/[-_]?(?:hq|inc|labs|sdk|api|js)$/, '');
  for (let prev = ''; prev !== n; ) {
    prev = n;
    n = n.replace(SDK_AFFIX, '');
  }
  return n;
}

type ManifestTopics = {
  service_name: string;
  category?: string;
  tags?: string[];
  manifest?: { intents?: readonly { id?: string }[] };
};

/** Operation verbs and path filler in intent ids ("post_customers_customer_subscriptions"): not what a service is about. */
const OPERATION_FILLER = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'list',
  'create',
  'update',
  'retrieve',
  'by',
  'id',
  'ids',
  'all',
  'the',
  'for',
  'and',
  'with',
  'api',
  'search',
]);
/** Resource words taken from a manifest's operations. */
const OPERATION_WORDS = 5;

/** The resources a manifest's operations act on, most used first ("customers", "invoices", "flight", "offers"). */
function operationWords(m: ManifestTopics, serviceWords: ReadonlySet<string>): string[] {
  const count = new Map<string, number>();
  for (const intent of m.manifest?.intents ?? []) {
    const words = new Set((intent.id ?? '').toLowerCase().split(/[^a-z0-9]+/));
    for (const w of words) {
      if (w.length < 3 || /^v?\d+$/.test(w) || OPERATION_FILLER.has(w) || serviceWords.has(w)) continue;
      count.set(w, (count.get(w) ?? 0) + 1);
    }
  }
  return [...count]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, OPERATION_WORDS)
    .map(([w]) => w);
}

/** The compiled API manifests of a catalog's apis/ directory (service_name, category, tags); [] when absent. */
export function readManifests(dir: string): ManifestTopics[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ManifestTopics)
    .filter((m) => typeof m.service_name === 'string');
}

/**
 * Topic words per service from compiled manifests: category, tags and the resources its operations act on,
 * keyed "stripe" for service_name "stripe_api".
 */
export function serviceTopics(manifests: readonly ManifestTopics[]): Map<string, string[]> {
  const byKey = new Map<string, string[][]>();
  for (const m of manifests) {
    const key = m.service_name.toLowerCase().replace(/(?:_v\d+)*(?:_\d+)*_api$/, '');
    // Only a service's own manifest names it: "twilio_messaging_v1" belongs to twilio, but
    // "google_..." or "aws_..." families are many services behind one word, so the first word
    // counts only when the family is small.
    const tagWords = [m.category ?? '', ...(m.tags ?? [])].filter((w) => w && w !== 'other');
    const words = [...tagWords, ...operationWords(m, new Set([...key.split('_'), ...tagWords]))];
    for (const k of new Set([key, key.split('_')[0]!])) {
      let list = byKey.get(k);
      if (!list) byKey.set(k, (list = []));
      list.push(words);
    }
  }
  const out = new Map<string, string[]>();
  for (const [key, lists] of byKey) {
    if (lists.length > 40) continue;
    // Words most of the family's manifests share (for one manifest: all of its words, first 12).
    const count = new Map<string, number>();
    for (const l of lists) for (const w of new Set(l)) count.set(w, (count.get(w) ?? 0) + 1);
    const words = [...count]
      .filter(([, c]) => c * 2 >= lists.length)
      .map(([w]) => w.replace(/_/g, ' '))
      .slice(0, 12);
    if (words.length) out.set(key, words);
  }
  return out;
}

export function withCatalogKnowledge(docs: readonly SearchDocument[], opts: KnowledgeOptions = {}): SearchDocument[] {
  const before = opts.memo;
  const after = before ? emptyKnowledgeMemo() : undefined;
  const entryKey = (d: SearchDocument) => `${d.fields.name}\u0000${d.fields.task ?? ''}`;
  const byKey = new Map<string, number[]>();
  docs.forEach((d, i) => {
    if (d.kind !== 'tool') return;
    const k = mentionKey(d.fields.name);
    if (k.length < MIN_NAME) return;
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  });
  // A name other summaries also use as a plain word is a word first: the entries that reuse it in
  // their names ("find-up", "jest-mock") do not describe the package called that. Plain uses are
  // lower-case ones after the first word and inflected ones ("mocks", "scrolling"). (Counting acronyms
  // in capitals too, "JWT", "RSS", also took the mentions of tar, sloc and mqtt, canonical tools named
  // by their format: off.)
  const plainUses = new Map<string, number>();
  const countPlain = (key: string, n: number) => {
    if (key.length >= MIN_NAME && byKey.has(key)) plainUses.set(key, (plainUses.get(key) ?? 0) + n);
  };
  for (const d of docs) {
    if (d.kind !== 'tool') continue;
    const words = (d.fields.task ?? '').split(/[^\p{L}]+/u);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (i === 0 || w !== w.toLowerCase()) continue;
      if (byKey.has(w)) countPlain(w, 1);
      else for (const base of inflectionBases(w)) countPlain(base, 1);
    }
  }
  // Who mentions whom: target key -> mentioning docs.
  const refs = new Map<string, number[]>();
  docs.forEach((d, src) => {
    if (d.kind !== 'tool') return;
    const own = mentionKey(d.fields.name);
    const names = remembered(before?.references, after?.references, entryKey(d), () =>
      nameReferences(d.fields.name, d.fields.task ?? ''),
    );
    for (const k of names) {
      if (k === own || !byKey.has(k)) continue;
      let list = refs.get(k);
      if (!list) refs.set(k, (list = []));
      list.push(src);
    }
  });
  const mentionedBy = new Map<number, number[]>();
  for (const [k, sources] of refs) {
    const plain = plainUses.get(k) ?? 0;
    if (plain >= MIN_PLAIN && plain > sources.length) continue;
    for (const t of byKey.get(k)!) {
      const list = sources.filter((s) => s !== t);
      if (list.length) mentionedBy.set(t, [...(mentionedBy.get(t) ?? []), ...list]);
    }
  }
  // Terms many entries use ("us", "simpl", "fast") say little about the one they name: each kept
  // term is weighed by its IDF over the entries' own words.
  const termsOf = new Map<number, readonly string[]>();
  const sourceTerms = (i: number): readonly string[] => {
    let t = termsOf.get(i);
    if (!t) {
      const d = docs[i]!;
      t = remembered(before?.terms, after?.terms, entryKey(d), () => [
        ...new Set([...analyzeProse(d.fields.task ?? ''), ...analyze(d.fields.name, { name: true })]),
      ]);
      termsOf.set(i, t);
    }
    return t;
  };
  const df = new Map<string, number>();
  for (const sources of mentionedBy.values()) {
    for (const s of sources) if (!termsOf.has(s)) for (const t of sourceTerms(s)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const nSources = termsOf.size || 1;
  const idf = (t: string) => Math.log(1 + nSources / (df.get(t) ?? 1));
  const vocabulary = learnVocabulary(docs.flatMap((d) => (d.kind === 'tool' ? [d.fields.task ?? ''] : [])));
  const out = docs.map((d, i) => {
    const about: string[] = [];
    const sources = mentionedBy.get(i);
    if (sources && sources.length >= 2 && sources.length <= MAX_MENTIONS) {
      const own = new Set(analyze(d.fields.name, { name: true }));
      const count = new Map<string, number>();
      for (const s of new Set(sources)) {
        for (const t of sourceTerms(s))
          if (!own.has(t) && !RELATION_WORDS.has(t)) count.set(t, (count.get(t) ?? 0) + 1);
      }
      const m = new Set(sources).size;
      const min = Math.max(2, Math.ceil(MIN_SHARE * m));
      const kept = [...count]
        .filter(([, c]) => c >= min)
        .map(([t, c]) => [t, c, c * idf(t)] as const)
        .sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_TERMS);
      for (const [t, c] of kept) for (let r = Math.min(MAX_TF, 1 + Math.floor(Math.log2(c))); r > 0; r--) about.push(t);
    }
    if (d.kind === 'tool' && opts.services) {
      const words = opts.services.get(serviceKeyOf(d.fields.name));
      if (words) about.push(...words.flatMap((w) => analyze(w)));
    }
    const mentions = sources ? new Set(sources).size : 0;
    const parts = d.kind === 'tool' ? nameParts(d.fields.name, vocabulary) : [];
    if (!about.length && !parts.length && !d.fields.about && !d.fields.nameParts && !mentions && !d.mentions) return d;
    return { ...d, mentions, fields: { ...d.fields, about, nameParts: parts } };
  });
  if (before && after) Object.assign(before, after);
  return out;
}
