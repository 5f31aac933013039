// Each served manifest as a prebuilt file at the API's own path, so a CDN answers
// GET /api/v1/services/{service_name}/mai-api.json without the server (its `/api/*` proxy rule is not
// forced, so a file that exists wins). Same bytes as the API's answer: the compact JSON of `manifest`.
import type { ApiManifest, ManifestBody } from '../apis/manifest.ts';
import type { OutputFile } from './sitemap.ts';

/** What the build worker needs of one manifest (the rest stays on the main thread). */
export interface ServedManifest {
  service_name: string;
  manifest: ManifestBody;
}

export const manifestPath = (serviceName: string) => `/api/v1/services/${serviceName}/mai-api.json`;

export const servedManifest = (m: ApiManifest): ServedManifest => ({ service_name: m.service_name, manifest: m.manifest });

export function* manifestFiles(apis: Iterable<ServedManifest>): Generator<OutputFile> {
  for (const m of apis) yield { path: manifestPath(m.service_name).slice(1), content: JSON.stringify(m.manifest) };
}
