// The shares an operator reads first, computed from the counts (null until a search is judged).
import type { SearchOutcomeTotals } from './types.ts';

const share = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 1000);

export const withShares = (t: SearchOutcomeTotals) => ({
  ...t,
  /** Of the searches an agent reported a use for, those whose first answer worked. */
  first_answer_met_share: share(t.first_answer_met, t.searches_judged),
  met_within_three_share: share(t.met_within_three, t.searches_judged),
});
