// Token counts with one real tokenizer: o200k_base (GPT-4o and later), via gpt-tokenizer.
//
// Why not just `countTokens(text)`: the directory is 413 MB of JSON and counting dominated the compile.
// o200k BPE never merges across the pieces its split regex cuts the text into, so a text's count is the
// sum of its pieces' counts — which is exactly how gpt-tokenizer's own `countTokens` computes it. JSON
// repeats the same pieces endlessly, so we split with the library's own o200k regex, count each distinct
// piece once with the library's `encode`, and add up. One level up, a `"` right after an ASCII letter or
// digit always starts a new piece (letter and digit pieces end at the first character that is neither,
// and the regex has no lookbehind), so the text is cut there into chunks such as `":"string` whose counts
// are memoised too. Same numbers as `countTokens` (checked on all 2,639 definitions, 102 M tokens, and in
// the tests) for about half its CPU; its default 100,000-entry merge cache is also avoided, whose LRU
// bookkeeping made counting the directory 3–4× slower. Special-token text such as "<|endoftext|>" inside
// a definition is ordinary text, never an error.
import { encode, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

export const TOKENIZER = 'o200k_base';

setMergeCacheSize(1000);

const OPTIONS = { disallowedSpecial: new Set<string>() };
// Our own instance: a global regex carries lastIndex, and the library's is in use by `encode`.
const SPLIT = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
const MEMO_LIMIT = 300_000;
const MAX_MEMO_CHUNK = 256; // longer chunks (prose) rarely repeat
const pieceMemo = new Map<string, number>();
const chunkMemo = new Map<string, number>();

function remember(memo: Map<string, number>, key: string, n: number): void {
  if (memo.size >= MEMO_LIMIT) memo.clear(); // bounded memory; a cleared memo only costs time
  memo.set(key, n);
}

/** Sum of the pieces' token counts; pieces are what the library's regex yields. */
function countPieces(text: string): number {
  let total = 0;
  SPLIT.lastIndex = 0;
  for (let m = SPLIT.exec(text); m !== null; m = SPLIT.exec(text)) {
    const piece = m[0];
    let n = pieceMemo.get(piece);
    if (n === undefined) {
      n = encode(piece, OPTIONS).length;
      remember(pieceMemo, piece, n);
    }
    total += n;
  }
  return total;
}

const isAsciiWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function countChunk(chunk: string): number {
  if (chunk.length > MAX_MEMO_CHUNK) return countPieces(chunk);
  let n = chunkMemo.get(chunk);
  if (n === undefined) {
    n = countPieces(chunk);
    remember(chunkMemo, chunk, n);
  }
  return n;
}

/** o200k_base token count of a text; equal to gpt-tokenizer's `countTokens` with special tokens as text. */
export function countTokens(text: string): number {
  let total = 0;
  let start = 0;
  for (let q = text.indexOf('"', 1); q !== -1; q = text.indexOf('"', q + 1)) {
    if (!isAsciiWordChar(text.charCodeAt(q - 1))) continue;
    total += countChunk(text.slice(start, q));
    start = q;
  }
  return total + countChunk(text.slice(start));
}

export interface Distribution {
  count: number;
  total: number;
  min: number;
  median: number;
  p90: number;
  max: number;
}

/** Nearest-rank percentiles of a list of counts. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  return {
    count: sorted.length,
    total: sorted.reduce((a, b) => a + b, 0),
    min: sorted[0] ?? 0,
    median: at(0.5),
    p90: at(0.9),
    max: sorted[sorted.length - 1] ?? 0,
  };
}
