// Whole-catalog checks for catalog/apis: the shared file checks (build/validate-catalog.ts) with the
// manifest schema; service_name plays the part of the aid.
import type { ApiManifest } from '../apis/manifest.ts';
import { validateManifest } from '../apis/manifest.ts';
import { type OperationsFile, validateOperationsFile } from '../apis/recipe-schema.ts';
import type { FieldError } from '../model/validate-contract.ts';
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

/**
 * catalog/apis/operations/<service_name>.json: schema, service_name = file name, a manifest of that name,
 * and every intent of the manifest among the recipes (same id, method and path), so an agent that picked
 * an intent always finds its recipe.
 */
export function checkOperationFiles(files: StoredFile[], manifests: readonly ApiManifest[]): FileCheck<OperationsFile> {
  const check = checkFiles<OperationsFile>(files, {
    validate: validateOperationsFile,
    idOf: (v) => (v as { service_name?: unknown } | null)?.service_name,
    idPath: '/service_name',
    duplicate: (first) => `duplicates the service_name of ${first}`,
  });
  const byName = new Map(manifests.map((m) => [m.service_name, m]));
  const fileOf = new Map(files.map((f) => [f.id, f.file]));
  for (const ops of check.valid) {
    const file = fileOf.get(ops.service_name) ?? ops.service_name;
    const manifest = byName.get(ops.service_name);
    if (!manifest) {
      check.errors.push(`${file}: /service_name: no manifest ${ops.service_name}.json beside it`);
      continue;
    }
    for (const e of intentsWithoutRecipe(manifest, ops)) check.errors.push(`${file}: ${e.path}: ${e.message}`);
  }
  return check;
}

/** Every intent of the manifest must have its recipe (same id, method and path): one error per intent that has none. */
export function intentsWithoutRecipe(manifest: ApiManifest, ops: OperationsFile): FieldError[] {
  const recipes = new Map(ops.operations.map((o) => [o.id, o]));
  const errors: FieldError[] = [];
  manifest.manifest.intents.forEach((intent, i) => {
    const recipe = recipes.get(intent.id);
    if (!recipe || recipe.method !== intent.method || recipe.path !== intent.path)
      errors.push({
        path: '/operations',
        message: `no recipe for intent ${i} (${intent.id}, ${intent.method} ${intent.path})`,
      });
  });
  return errors;
}
