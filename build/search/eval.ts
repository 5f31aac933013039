// Relevance measurement shared by `npm run eval:search` and `npm run bench:search`.
// A query set is JSON {queries: [{query, accept: [package names]}]}; a hit counts when its
// document's name is one of the accepted names (either registry).
//   loadQuerySet(file) -> QuerySet
//   evaluate(queries, search, nameOf) -> {successAt5, mrrAt10, perQuery}
import { readFileSync } from 'node:fs';

export interface IntentQuery {
  query: string;
  accept: string[];
}

export interface QuerySet {
  queries: IntentQuery[];
}

export function loadQuerySet(file: string): QuerySet {
  const json = JSON.parse(readFileSync(file, 'utf8')) as QuerySet;
  if (!Array.isArray(json.queries)) throw new Error(`${file}: no queries`);
  return json;
}

export interface QueryOutcome {
  query: string;
  /** 1-based rank of the first accepted result in the top 10, or 0. */
  rank: number;
  top: string[];
}

export interface Relevance {
  successAt5: number;
  mrrAt10: number;
  perQuery: QueryOutcome[];
}

export async function evaluate(
  queries: readonly IntentQuery[],
  search: (q: string) => Promise<string[]> | string[],
  nameOf: (id: string) => string | undefined,
): Promise<Relevance> {
  let s5 = 0;
  let mrr = 0;
  const perQuery: QueryOutcome[] = [];
  for (const q of queries) {
    const ids = (await search(q.query)).slice(0, 10);
    const accept = new Set(q.accept.map((a) => a.toLowerCase()));
    const names = ids.map((id) => nameOf(id) ?? id);
    const i = names.findIndex((n) => accept.has(n.toLowerCase()));
    const rank = i < 0 ? 0 : i + 1;
    if (rank > 0 && rank <= 5) s5++;
    if (rank > 0) mrr += 1 / rank;
    perQuery.push({ query: q.query, rank, top: names });
  }
  const n = queries.length || 1;
  return { successAt5: s5 / n, mrrAt10: mrr / n, perQuery };
}
