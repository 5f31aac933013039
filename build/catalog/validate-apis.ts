// Whole-catalog checks for catalog/apis: the shared file checks (build/validate-catalog.ts) with the
// manifest schema; service_name plays the part of the aid.
import type { ApiManifest } from '../apis/manifest.ts';
import { validateManifest } from '../apis/manifest.ts';
import type { StoredFile } from './catalog-store.ts';
import { checkFiles, type FileCheck } from './validate-catalog.ts';

export type ApiCheck = FileCheck<ApiManifest>;

export function checkApiFiles(files: StoredFile[]): ApiCheck {
  return checkFiles<ApiManifest>(files, {
    validate: validateManifest,
    idOf: (v) => (v as { service_name?: unknown } | null)?.service_name,
    idPath: '/service_name',
    duplicate: (first) => `duplicates the service_name of ${first}`,
  });
}

/** Manifests the API and the site serve: verified ones (the others wait for an admin). */
export const isServedApi = (m: ApiManifest) => m.record.verified;
