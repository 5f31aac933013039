// Text analysis shared by every search path: the API engine, the static index writer and the
// browser client (bundled from this very file), so a word is turned into the same terms everywhere.
// Exports:
//   normalizeText(text, maxChars)  NFKC + lower case + clip, never throws on any input
//   analyze(text, {name?})         -> string[] terms (stemmed, stop words removed, in order, may repeat)
//   nameKey(text)                  -> the exact-name key ("js-yaml" and "JS YAML" both give "jsyaml")
//   stem(word)                     the inflectional stem (stemmer.ts), cached
//   MAX_QUERY_CHARS                queries are clipped to this many characters before anything else
// Lunr's own stop-word list is used (lunr is the static index), but neither lunr's stemmer (its
// derivational steps merge different senses, stemmer.ts) nor its tokenizer: it splits only on
// spaces and hyphens, while package names and summaries are full of "node.js", "e-mail",
// "sqlite3", "pyyaml" and "@scope/name".
import lunr from 'lunr';
import { inflectionalStem } from './stemmer.ts';

export const MAX_QUERY_CHARS = 200;
export const MAX_FIELD_CHARS = 2000;
const MAX_TERM_CHARS = 40;

/** Clip to `maxChars` code points after NFKC + lower-casing; anything (null, numbers, lone surrogates) is accepted. */
export function normalizeText(text: unknown, maxChars = MAX_FIELD_CHARS): string {
  let s = typeof text === 'string' ? text : text == null ? '' : String(text);
  // Clip before normalizing too, so a 1 MB input costs no more than a short one.
  if (s.length > maxChars * 4) s = s.slice(0, maxChars * 4);
  if (ASCII.test(s)) return (s.length > maxChars ? s.slice(0, maxChars) : s).toLowerCase();
  s = s.replace(/[\uD800-\uDFFF]/gu, ' '); // lone surrogates (the /u flag leaves valid pairs alone)
  s = s.normalize('NFKC').toLowerCase();
  if (s.length <= maxChars) return s;
  const cps = Array.from(s);
  return cps.length > maxChars ? cps.slice(0, maxChars).join('') : s;
}

const ASCII = /^[\x00-\x7f]*$/;
const stemCache = new Map<string, string>();
const STEM_CACHE_MAX = 200_000;

/** The inflectional stem of one lower-case word, memoised (indexing 100k summaries repeats words a lot). */
export function stem(word: string): string {
  const hit = stemCache.get(word);
  if (hit !== undefined) return hit;
  const out = /^[a-z]+$/.test(word) ? inflectionalStem(word) : word;
  if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
  stemCache.set(word, out);
  return out;
}

// Lunr drops "every" but keeps "each": listings use both to say a tool enumerates ("List every date in a range",
// "listing every error"), which is what "list every date from … to …" asks for.
const KEPT = new Set(['every']);

export function isStopWord(word: string): boolean {
  if (KEPT.has(word)) return false;
  return lunr.stopWordFilter(new lunr.Token(word, {})) === undefined;
}
const stopCache = new Map<string, boolean>();
function stop(word: string): boolean {
  let v = stopCache.get(word);
  if (v === undefined) {
    v = isStopWord(word);
    if (stopCache.size < 10_000) stopCache.set(word, v);
  }
  return v;
}

// Scripts written without spaces: index overlapping character bigrams, the usual CJK approach.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
// A compound: letters/digits joined by . _ - ' (node.js, e-mail, python_dotenv, python's).
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:['’._-][\p{L}\p{N}\p{M}]+)*/gu;
const PART_SEP = /['’._-]+/u;
// "spin.js", "socket.io": the suffix names a platform, the joined form would be a one-off term.
const AFFIX_PARTS = new Set(['js', 'py', 'io', 'rs', 'go', 'ts']);

// A versioned word: sqlite3, argon2, HTML5, CSS3, python3 (also meant by its letters).
const VERSIONED = /^([a-z]{3,})\d+$/;

/**
 * Packaging conventions that hide the word an agent would type: "pyyaml", "exceljs", "nodemailer",
 * "libsass", "sqlite3". Name-only (and applied to queries, which may be names): a summary saying
 * "python" must not also index "thon".
 */
function affixVariants(word: string, out: string[]): void {
  const m = VERSIONED.exec(word); // sqlite3 -> sqlite, argon2 -> argon
  if (m?.[1]) out.push(m[1]);
  if (!/^[a-z]+$/.test(word)) return;
  if (word.startsWith('py') && word.length >= 5 && !word.startsWith('python')) out.push(word.slice(2));
  if (word.startsWith('python') && word.length >= 10) out.push(word.slice(6));
  if (word.startsWith('node') && word.length >= 8) out.push(word.slice(4));
  // "libsass" names sass, but "library" and "liberty" are words.
  if (word.startsWith('lib') && word.length >= 7 && !/^lib(?:rar|er)/.test(word)) out.push(word.slice(3));
  if (word.endsWith('js') && word.length >= 5) out.push(word.slice(0, -2));
  if (word.endsWith('py') && word.length >= 6) out.push(word.slice(0, -2));
}

/**
 * British to American spelling before stemming ("tokeniser" -> "tokenizer", "colour" -> "color",
 * "analyse" -> "analyze"). Applied to documents and queries alike, so it only ever merges forms.
 */
function americanize(w: string): string {
  if (w.length < 6) return w.length >= 5 ? w.replace(/^([a-z]{2,})our$/, '$1or') : w;
  return w
    .replace(/^([a-z]{4,})is(e|es|ed|er|ers|ing|ation|ations)$/, '$1iz$2')
    .replace(/^([a-z]{3,})ys(e|es|ed|er|ers|ing)$/, '$1yz$2')
    .replace(/^([a-z]{3,})our(s|ed|ing|ful)?$/, '$1or$2');
}

// Word -> its terms, per mode (prose / name). Catalog text repeats words endlessly; computing stop
// words, spelling, stems and affixes once per distinct word is most of the indexing speed.
const WORD_CACHE_MAX = 300_000;
const wordCache = [new Map<string, readonly string[]>(), new Map<string, readonly string[]>()];
const NONE: readonly string[] = [];

function wordTerms(word: string, name: boolean): readonly string[] {
  const cache = wordCache[name ? 1 : 0]!;
  let terms = cache.get(word);
  if (terms !== undefined) return terms;
  if (word.length < 2 && !/\p{N}/u.test(word))
    terms = NONE; // single letters carry nothing
  else if (/^\d{5,}$/.test(word))
    terms = NONE; // long numbers: versions, ids, years rarely searched
  else if (stop(word)) terms = NONE;
  else {
    const base = stem(americanize(word));
    const list = stop(base) ? [] : [base];
    if (name) {
      const extra: string[] = [];
      affixVariants(word, extra);
      for (const e of extra) if (!stop(e)) list.push(stem(e));
    } else {
      // Prose too: a summary saying "HTML5 parser" is an HTML parser.
      const m = VERSIONED.exec(word);
      if (m?.[1] && !stop(m[1])) list.push(stem(m[1]));
    }
    terms = list;
  }
  if (cache.size >= WORD_CACHE_MAX) cache.clear();
  cache.set(word, terms);
  return terms;
}

function pushWord(word: string, out: string[], name: boolean): void {
  if (word.length > MAX_TERM_CHARS) return;
  if (!ASCII.test(word) && CJK.test(word)) {
    for (const run of word.match(CJK_RUNS) ?? []) {
      if (!CJK.test(run)) {
        pushWord(run, out, name);
        continue;
      }
      const cs = Array.from(run);
      if (cs.length === 1) out.push(run);
      for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i]! + cs[i + 1]!);
    }
    return;
  }
  for (const t of wordTerms(word, name)) out.push(t);
}

/**
 * Terms of a text, in order (repeats kept: the caller counts term frequency). `name: true` adds
 * the packaging-affix variants. Hyphenated/dotted compounds give their parts and, for affix-like
 * compounds, the joined form too, so "e-mail" meets "email" and "node.js" meets "nodejs".
 */
export function analyze(text: unknown, opts: { name?: boolean; joined?: boolean; maxChars?: number } = {}): string[] {
  const s = normalizeText(text, opts.maxChars ?? MAX_FIELD_CHARS);
  const out: string[] = [];
  const name = opts.name === true;
  const joinParts = opts.joined ?? !name;
  for (const m of s.matchAll(COMPOUND)) {
    const compound = m[0];
    const parts = compound.split(PART_SEP).filter(Boolean);
    for (const p of parts) pushWord(p, out, name);
    // Joined forms for affix-like compounds ("e-mail", "node.js", "x-ray"), so "email" meets
    // "e-mail"; joining every compound ("password-based") would only mint one-off terms.
    if (
      joinParts &&
      parts.length === 2 &&
      !/['’]/u.test(compound) &&
      parts.some((p) => p.length <= 2) &&
      !parts.some((p) => AFFIX_PARTS.has(p))
    ) {
      pushWord(parts.join(''), out, false);
    }
  }
  return out;
}

/** Exact-name key: letters and digits only, so "@sendgrid/mail", "sendgrid mail" and "SendGrid-Mail" agree. */
export function nameKey(text: unknown): string {
  return normalizeText(text, MAX_QUERY_CHARS)
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .slice(0, 80);
}
