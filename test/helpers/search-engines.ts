// Small catalogs for ranking tests, and the check every ranking test ends with: the static shards answer each
// query with the API engine's ids and scores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { StaticSearch } from '../../build/search/client.ts';
import { documentFromContract, type SearchDocument } from '../../build/search/documents.ts';
import { createSearchIndex, type SearchOptions } from '../../build/search/engine.ts';
import { dirFetcher } from '../../build/search/fs-fetch.ts';
import { writeStaticSearch } from '../../build/search/static-index.ts';
import { sampleContract } from './temp-catalog.ts';

/** Unrelated entries, so the words a test is about have an IDF. */
export function lintFillers(count = 20, patch: Parameters<typeof sampleContract>[1] = {}): ToolContract[] {
  return Array.from({ length: count }, (_, i) =>
    sampleContract(`npm-other${i}-v1`, {
      ...patch,
      identity: { task: `Lint source files of kind ${i}`, tags: ['lint'], ...patch.identity },
    }),
  );
}

/** The API engine over `contracts` and the lint fillers: its documents and index (for expectStaticAgrees) and the id
 * it ranks first for a query. */
export function rankingIndex(contracts: readonly ToolContract[]) {
  const docs = [...lintFillers(), ...contracts].map(documentFromContract);
  const built = createSearchIndex(docs);
  const first = (query: string, opts: Omit<SearchOptions, 'limit'> = {}) =>
    built.engine.search(query, { ...opts, limit: 1 })[0]?.id;
  return { docs, built, first };
}

/** The id the API engine ranks first for `query` among `contracts` and the lint fillers. */
export function firstAnswer(contracts: readonly ToolContract[], query: string): string | undefined {
  return rankingIndex(contracts).first(query);
}

/** Writes the static index of `docs` and expects it to rank each query as the API engine does (top 5, scores too). */
export async function expectStaticAgrees(
  docs: SearchDocument[],
  built: ReturnType<typeof createSearchIndex>,
  queries: readonly string[],
): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'static-agrees-'));
  try {
    writeStaticSearch(docs, dir, { expansions: built.expansions, analyzed: built.analyzed });
    const client = await StaticSearch.open(dirFetcher(dir).fetchJson);
    for (const q of queries) {
      const api = built.engine.search(q, { limit: 5 });
      const stat = await client.search(q, { limit: 5 });
      expect(stat.map((h) => [h.id, h.score])).toEqual(api.map((h) => [h.id, h.score]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
