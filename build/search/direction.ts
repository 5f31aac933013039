// Conversion direction. "convert an HTML page into Markdown" and "Convert Markdown to HTML" share every word, so
// bag-of-words ranking cannot tell a tool for the need from one for the reverse. Both sides read the direction
// the same way: "A to B", "A into B", "A as B" and "B from A" give the pair term `a>b` (analysed words, so plurals and
// spellings agree). Documents index the pairs of their task in the task field; a query adds its pairs as bonus
// terms (not concepts), so a tool converting the asked way gains and the reverse gains nothing. Pure, shared by
// both engines through documents.ts and plan.ts.
import { analyze, normalizeText } from './tokenize.ts';

// "as": "save the table as CSV", "write a markdown document out as an HTML file".
const TOWARD = new Set(['to', 'into', 'as']);
const FROM = 'from';
// Words that sit between a format and the connector without being the format ("an HTML page into", "a JSON
// file to"): skipped, so the pair names the formats.
const SKIP = new Set([
  'a',
  'an',
  'the',
  'its',
  'their',
  'your',
  'my',
  'this',
  'that',
  'file',
  'files',
  'page',
  'pages',
  'document',
  'documents',
  'data',
  'content',
  'contents',
  'format',
  'formatted',
  'plain',
  'back',
  'out',
  'it',
  'them',
]);
const AND = new Set(['and', 'or']);
// Words that end the phrase after a connector: prepositions and clause words ("to JSON with the keys sorted").
const PHRASE_END = new Set([
  'with',
  'for',
  'in',
  'on',
  'using',
  'by',
  'via',
  'of',
  'without',
  'at',
  'while',
  'when',
  'that',
  'which',
  'so',
  'then',
  'but',
  'through',
  'over',
  'per',
  'like',
  'than',
  'if',
]);
const MAX_TARGET_WORDS = 3;
const MAX_PAIRS = 6;

function term(word: string | undefined): string | null {
  if (!word || SKIP.has(word) || AND.has(word) || TOWARD.has(word) || word === FROM || /^\d+$/.test(word)) return null;
  return analyze(word)[0] ?? null;
}

/** The `source>target` pair terms a text states, in order, each once. */
export function directionPairs(text: unknown, maxChars?: number): string[] {
  const normal = normalizeText(text, maxChars);
  const found = [...normal.matchAll(/[\p{L}\p{N}]+/gu)];
  const words = found.map((m) => m[0]);
  // Punctuation between word k-1 and word k ends a phrase: "to HTML (CommonMark, GFM)" names one target. A dot
  // that opens word k after a space is its file extension's: "into a Word .docx document" names docx too.
  const broken = found.map((m, k) => {
    const gap = k > 0 ? normal.slice(found[k - 1]!.index + found[k - 1]![0].length, m.index) : '';
    return k > 0 && !/^\s+\.$/u.test(gap) && /[^\s\p{L}\p{N}'’-]/u.test(gap);
  });
  const out: string[] = [];
  const add = (from: string | null, to: string | null) => {
    const pair = from && to && from !== to ? `${from}>${to}` : null;
    if (pair && !out.includes(pair) && out.length < MAX_PAIRS) out.push(pair);
  };
  // The words after the connector up to the end of their phrase ("to readable plain text": readabl, text): the
  // format is often the last of them, after its adjectives.
  const following = (i: number): string[] => {
    const found: string[] = [];
    for (let k = i + 1; k < words.length && k <= i + 4; k++) {
      const w = words[k]!;
      if (k > i + 1 && broken[k]) break;
      if (SKIP.has(w)) continue;
      const t = term(w);
      if (!t || PHRASE_END.has(w)) break;
      found.push(t);
      if (found.length === MAX_TARGET_WORDS) break;
    }
    return found;
  };
  const next = (i: number): string | null => following(i)[0] ?? null;
  // The word before the connector, and the ones joined to it by and/or ("HTML and XML to JSON").
  const previous = (i: number): string[] => {
    const found: string[] = [];
    for (let k = i - 1; k >= 0 && k >= i - 6; k--) {
      const w = words[k]!;
      if (SKIP.has(w)) continue;
      if (found.length > 0 && AND.has(w)) continue;
      const t = term(w);
      if (!t || (found.length > 0 && !AND.has(words[k + 1]!))) break;
      found.push(t);
    }
    return found;
  };
  words.forEach((w, i) => {
    if (TOWARD.has(w)) {
      const targets = following(i);
      for (const from of previous(i)) for (const to of targets) add(from, to);
    } else if (w === FROM || (w === 'of' && words[i - 1] === 'out')) {
      // "B out of A" reads as "B from A": "make a PDF document out of a plain text file".
      const from = next(i);
      for (const to of previous(i).slice(0, 1)) add(from, to);
    }
  });
  return out;
}
