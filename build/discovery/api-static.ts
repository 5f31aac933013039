// Each served manifest as a prebuilt file at the API's own path, so a CDN answers
// GET /api/v1/services/{service_name}/mai-api.json without the server (its `/api/*` proxy rule is not
// forced, so a file that exists wins). Same bytes as the API's answer: the compact JSON of `manifest`.
import { linkSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ApiManifest, ManifestBody } from '../apis/manifest.ts';
import { writeFiles } from '../pipeline/write-files.ts';
import type { OutputFile } from './sitemap.ts';

/** What the build worker needs of one manifest (the rest stays on the main thread). */
export interface ServedManifest {
  service_name: string;
  manifest: ManifestBody;
}

const SERVICES_DIR = 'api/v1/services';
export const manifestPath = (serviceName: string) => `/${SERVICES_DIR}/${serviceName}/mai-api.json`;

export const servedManifest = (m: ApiManifest): ServedManifest => ({
  service_name: m.service_name,
  manifest: m.manifest,
});

export function* manifestFiles(apis: Iterable<ServedManifest>): Generator<OutputFile> {
  for (const m of apis) yield { path: manifestPath(m.service_name).slice(1), content: JSON.stringify(m.manifest) };
}

// What the last call in this thread wrote. The build worker is long-lived, so a rebuild that follows
// its own previous build hard-links every unchanged manifest (one folder and one link each, instead of
// a folder and a written file): 2,600 of them would otherwise dominate a one-tool rebuild.
let last: { dir: string; content: Map<string, string> } | null = null;

/** Writes (or links from `prevDir`, when this thread wrote it) every manifest file into `buildDir`. */
export async function writeManifestFiles(
  buildDir: string,
  apis: ServedManifest[],
  prevDir: string | null,
): Promise<{ written: number; linked: number }> {
  const before = prevDir !== null && last?.dir === prevDir ? last.content : null;
  const content = new Map<string, string>();
  const fresh: OutputFile[] = [];
  // One recursive mkdir for the shared parent; each manifest's own folder is then one plain mkdir.
  if (before && apis.length) mkdirSync(path.join(buildDir, SERVICES_DIR), { recursive: true });
  for (const f of manifestFiles(apis)) {
    content.set(f.path, f.content);
    if (prevDir && before?.get(f.path) === f.content && linked(prevDir, buildDir, f.path)) continue;
    fresh.push(f);
  }
  await writeFiles(buildDir, fresh);
  last = { dir: buildDir, content };
  return { written: fresh.length, linked: apis.length - fresh.length };
}

function linked(fromDir: string, toDir: string, file: string): boolean {
  const target = path.join(toDir, file);
  try {
    // The recipe links (api-recipes-static.ts) may have made the folder already.
    mkdirSync(path.dirname(target), { recursive: true });
    linkSync(path.join(fromDir, file), target);
    return true;
  } catch {
    return false; // gone or not linkable: written instead
  }
}
