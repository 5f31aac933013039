// What a text says is absent. "which images on this page have no alt text?" shares every word with a tool that
// lists images with their alt text, and a word's absence is the need: read word by word, "no" is a stop word and
// the lister answered first, above the checker whose listing says "images without alt text". Both sides read
// "without X", "no X", "missing X" and "lacking X" as the terms `-x` for the words of X up to the end of its phrase
// (articles skipped): documents index those of their task in the key field (documents.ts), a query adds its own
// as one optional concept (plan.ts, scale RANK.absenceWeight; as plain bonus terms the checker stayed second), so a
// tool about the absence covers more than one about the thing. Pure, shared by both engines through documents.ts and plan.ts.
import { analyze, normalizeText } from './tokenize.ts';

const ABSENT = new Set(['without', 'no', 'missing', 'lacking']);
const SKIP = new Set(['a', 'an', 'any', 'the', 'its', 'their', 'his', 'her', 'my', 'your']);
const MAX_WORDS = 2;
const MAX_TERMS = 6;

/** The `-word` terms of what a text says is absent, in order, each once. */
export function absenceTerms(text: unknown, maxChars?: number): string[] {
  const normal = normalizeText(text, maxChars);
  const found = [...normal.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}'’-]/gu)].map((m) => m[0]);
  const out: string[] = [];
  found.forEach((w, i) => {
    if (!ABSENT.has(w)) return;
    let taken = 0;
    for (let k = i + 1; k < found.length && taken < MAX_WORDS && out.length < MAX_TERMS; k++) {
      const next = found[k]!;
      if (SKIP.has(next) && taken === 0) continue;
      // Punctuation, another absence word or a stop word ("without verifying the signature": verifying, not the)
      // ends the phrase.
      const term = /^[\p{L}\p{N}]+$/u.test(next) && !ABSENT.has(next) ? analyze(next)[0] : undefined;
      if (!term) break;
      if (!out.includes(`-${term}`)) out.push(`-${term}`);
      taken++;
    }
  });
  return out;
}
