// Loads and validates the whole catalog into memory once; the build renders from it and the API
// answers from it, so neither touches files per request.
import type { CatalogStore } from './catalog-store.ts';
import type { ToolContract } from '../model/contract.ts';
import { checkToolFiles } from './validate-catalog.ts';
import { byReliability } from '../model/views.ts';

export interface Snapshot {
  /** Valid contracts, ordered by reliability (the default listing order). */
  tools: ToolContract[];
  byAid: Map<string, ToolContract>;
  /** One line per problem; a build refuses to run when this is not empty. */
  errors: string[];
  /** When this snapshot was made (every write makes a new one): the agent document's `generated_at`. */
  madeAt: string;
}

export function snapshotOf(tools: ToolContract[], errors: string[] = []): Snapshot {
  const sorted = [...tools].sort(byReliability);
  return {
    tools: sorted,
    byAid: new Map(sorted.map((t) => [t.identity.aid, t])),
    errors,
    madeAt: new Date().toISOString(),
  };
}

export async function loadSnapshot(store: CatalogStore): Promise<Snapshot> {
  const { valid, errors } = checkToolFiles(await store.readAll('tools'));
  return snapshotOf(valid, errors);
}
