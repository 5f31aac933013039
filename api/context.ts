// What every route reads: configuration, the catalog store and the in-memory snapshot of the catalog.
// Writes replace the snapshot, so readers always see one consistent catalog.
import type { CatalogStore } from '../build/catalog-store.ts';
import type { Config } from '../build/config.ts';
import type { Snapshot } from '../build/snapshot.ts';

export interface AppContext {
  config: Config;
  store: CatalogStore;
  snapshot: Snapshot;
  startedAt: Date;
}
