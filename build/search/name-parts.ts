// Words hidden in a package name written as one word: "prettyjson", "jsondiffpatch", "easyocr", "loadtest",
// "textblob". Agents type the words ("pretty print json", "diff json", "ocr"); the name holds them glued. The
// catalog's own summaries say which strings are words: a name segment splits into parts when each part is a
// word many summaries use and the segment itself is not one ("together", "password" stay whole).
//   learnVocabulary(tasks)      -> word -> number of summaries using it (letters only, lower case)
//   nameParts(name, vocabulary) -> the words of the name's glued segments, [] when none split
// Computed at build time with the rest of the catalog knowledge (knowledge.ts), the same for both engines.

export const NAME_PARTS = {
  /** Segments shorter than this are left alone (too many accidental splits). */
  minSegment: 6,
  /** Shortest part. */
  minPart: 3,
  /** Summaries a part must appear in to count as a word. */
  minPartUses: 20,
  /** A segment used as a word by this many summaries is a word itself, not a compound. */
  maxSegmentUses: 5,
};

export type Vocabulary = ReadonlyMap<string, number>;

/** How many summaries use each lower-case letters-only word of 3+ letters. */
export function learnVocabulary(tasks: Iterable<string>): Map<string, number> {
  const df = new Map<string, number>();
  for (const task of tasks) {
    const seen = new Set<string>();
    for (const w of task.toLowerCase().split(/[^a-z]+/)) {
      if (w.length < NAME_PARTS.minPart || seen.has(w)) continue;
      seen.add(w);
      df.set(w, (df.get(w) ?? 0) + 1);
    }
  }
  return df;
}

const uses = (vocab: Vocabulary, w: string) => vocab.get(w) ?? 0;

/** Best split of one letters-only segment into words (recursively, at most 3 parts), or null. */
function split(segment: string, vocab: Vocabulary, depth = 0): string[] | null {
  const { minPart, minPartUses } = NAME_PARTS;
  let best: string[] | null = null;
  let bestScore = 0;
  for (let i = minPart; i <= segment.length - minPart; i++) {
    const left = segment.slice(0, i);
    const right = segment.slice(i);
    if (uses(vocab, left) < minPartUses) continue;
    let parts: string[] | null = uses(vocab, right) >= minPartUses ? [left, right] : null;
    if (!parts && depth === 0 && right.length >= 2 * minPart) {
      const rest = split(right, vocab, 1);
      if (rest) parts = [left, ...rest];
    }
    if (!parts) continue;
    // The split whose rarest part is most used wins (ties: fewer parts, then the earlier cut).
    const score = Math.min(...parts.map((p) => uses(vocab, p))) / parts.length;
    if (score > bestScore) {
      best = parts;
      bestScore = score;
    }
  }
  return best;
}

export function nameParts(name: string, vocab: Vocabulary): string[] {
  const out: string[] = [];
  for (const raw of name.toLowerCase().split(/[^a-z0-9]+/)) {
    const segment = raw.replace(/\d+$/, '');
    if (segment.length < NAME_PARTS.minSegment || !/^[a-z]+$/.test(segment)) continue;
    if (uses(vocab, segment) >= NAME_PARTS.maxSegmentUses) continue;
    const parts = split(segment, vocab);
    if (parts) out.push(...parts);
  }
  return out;
}
