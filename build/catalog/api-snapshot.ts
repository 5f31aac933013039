// Loads and validates catalog/apis once per build, next to the tool snapshot (build/snapshot.ts).
import type { ApiManifest } from '../apis/manifest.ts';
import type { CatalogStore } from './catalog-store.ts';
import { checkApiFiles, isServedApi } from './validate-apis.ts';

export interface ApiSnapshot {
  /** Verified, valid manifests by service_name: what the API serves and the site lists. */
  served: ApiManifest[];
  /** One line per problem; a build from the catalog refuses to run when this is not empty. */
  errors: string[];
}

export function apiSnapshotOf(valid: ApiManifest[], errors: string[] = []): ApiSnapshot {
  const served = valid
    .filter(isServedApi)
    .sort((a, b) => (a.service_name < b.service_name ? -1 : a.service_name > b.service_name ? 1 : 0));
  return { served, errors };
}

export async function loadApiSnapshot(store: CatalogStore): Promise<ApiSnapshot> {
  const { valid, errors } = checkApiFiles(await store.readAll('apis'));
  return apiSnapshotOf(valid, errors);
}
