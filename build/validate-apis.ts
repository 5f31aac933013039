// Whole-catalog checks for catalog/apis on top of the manifest schema: service_name equals the file name,
// no name twice. Same one-line messages as the tool checks, so `npm run validate` prints both alike.
import type { ApiManifest } from './apis/manifest.ts';
import { validateManifest } from './apis/manifest.ts';
import type { StoredFile } from './catalog-store.ts';

export interface ApiCheck {
  valid: ApiManifest[];
  /** `catalog/apis/x_api.json: /manifest/base_url: must be an http(s) URL` */
  errors: string[];
}

export function checkApiFiles(files: StoredFile[]): ApiCheck {
  const errors: string[] = [];
  const valid: ApiManifest[] = [];
  const seen = new Map<string, string>();
  for (const f of files) {
    if (f.parseError) {
      errors.push(`${f.file}: /: ${f.parseError}`);
      continue;
    }
    const problems = validateManifest(f.value);
    const name = (f.value as { service_name?: unknown } | null)?.service_name;
    if (typeof name === 'string' && name !== f.id) {
      problems.push({ path: '/service_name', message: `"${name}" must equal the file name "${f.id}"` });
    }
    // Explicit paths may name files from several folders; the API serves one manifest per name.
    const key = (typeof name === 'string' ? name : f.id).toLowerCase();
    const first = seen.get(key);
    if (first) problems.push({ path: '/service_name', message: `duplicates the service_name of ${first}` });
    else seen.set(key, f.file);
    for (const p of problems) errors.push(`${f.file}: ${p.path}: ${p.message}`);
    if (problems.length === 0) valid.push(f.value as ApiManifest);
  }
  return { valid, errors };
}

/** Manifests the API and the site serve: verified ones (the others wait for an admin). */
export const isServedApi = (m: ApiManifest) => m.record.verified;
