// Which task input goes to which placeholder when several could: the assignment an agent reading the whole
// command would make, not the first fit found in order. Among all ways to hand the inputs to compatible
// placeholders (each input at most one, each placeholder at most one), the best is the one that
//   1. places the most inputs that must be placed (a file or text left out means the tool does not do the task),
//      then the most numbers (which may stay at defaults),
//   2. pairs the best-named (fill.ts nameScore: same name, one inside the other, a shared word),
//   3. agrees with the direction the need gives ("… to Los Angeles time" → a `to_zone`, not a `from_zone`),
//   4. passes fewest text files as their text (a file placeholder reads them as files),
//   5. keeps the order the need mentions the inputs in (born on A, on B → `{from}` A, `{to}` B),
//   6. uses the placeholders in order of use.
// Pure; exhaustive over the few inputs a task has.

export interface PairScore {
  /** nameScore of the pair (0-3). */
  name: number;
  /** +1 the need's direction agrees with the placeholder's side, -1 it contradicts it, 0 neither says. */
  direction: number;
  /** The input goes in as its text (a text file to a text placeholder). */
  content: boolean;
}

/** Input index -> placeholder index (-1: left out), best first by the rules above. */
export function bestAssignment(
  placeholders: number,
  inputs: number,
  pair: (placeholder: number, input: number) => PairScore | null,
  /** Where the need mentions each input (smaller is earlier); undefined: not mentioned (task order then). */
  mention: readonly (number | undefined)[],
  /** Inputs the command must receive (a number may stay at its default). */
  required: readonly boolean[],
): number[] {
  const pairs = Array.from({ length: inputs }, (_, i) => Array.from({ length: placeholders }, (_, p) => pair(p, i)));
  const chosen = new Array<number>(inputs).fill(-1);
  const taken = new Array<boolean>(placeholders).fill(false);
  let best: number[] = [...chosen];
  let bestKey: number[] | null = null;
  // A bound on the search: tasks hold a handful of inputs, commands a handful of placeholders.
  let budget = 200_000;
  const key = (): number[] => {
    let placed = 0;
    let optional = 0;
    let name = 0;
    let direction = 0;
    let content = 0;
    let inversions = 0;
    let used = 0;
    for (let i = 0; i < inputs; i++) {
      const p = chosen[i]!;
      if (p < 0) continue;
      const s = pairs[i]![p]!;
      if (required[i]) placed++;
      else optional++;
      name += s.name;
      direction += s.direction;
      content += s.content ? 1 : 0;
      used += p;
      for (let j = 0; j < inputs; j++) {
        const q = chosen[j]!;
        if (q >= 0 && p > q && mentionedBefore(i, j)) inversions++;
      }
    }
    // Larger is better in every position.
    return [placed, optional, name, direction, -content, -inversions, -used];
  };
  const mentionedBefore = (i: number, j: number) => {
    const a = mention[i];
    const b = mention[j];
    return a !== undefined && b !== undefined ? a < b : i < j;
  };
  const better = (a: number[], b: number[]) => {
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! > b[k]!;
    return false;
  };
  const visit = (i: number) => {
    if (budget-- <= 0) return;
    if (i === inputs) {
      const k = key();
      if (!bestKey || better(k, bestKey)) {
        bestKey = k;
        best = [...chosen];
      }
      return;
    }
    for (let p = 0; p < placeholders; p++) {
      if (taken[p] || !pairs[i]![p]) continue;
      taken[p] = true;
      chosen[i] = p;
      visit(i + 1);
      taken[p] = false;
    }
    chosen[i] = -1;
    visit(i + 1);
  };
  visit(0);
  return best;
}
