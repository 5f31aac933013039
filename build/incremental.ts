// Incremental builds: a changed contract re-renders its own page and JSON; every other tool's files are
// hard-linked from the current build (no copy, no re-render). Shared files (indexes, discovery, search)
// are always written anew. Links are safe because nothing ever writes into a linked file: each build
// writes only files that do not exist yet in its own fresh folder.
import { existsSync, linkSync, mkdirSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { BUILD_INFO } from './dist-swap.ts';
import { STATIC_TOOLS_DIR } from './discovery/static-json.ts';

/** The files that belong to exactly one tool, relative to a build folder. */
export const perToolFiles = (aid: string) => [`tools/${aid}/index.html`, `${STATIC_TOOLS_DIR}/${aid}.json`];

export interface PreviousBuild {
  dir: string;
  baseUrl: string;
}

/** The current build, if it was made for the same public URL (otherwise every page must change). */
export async function reusableBuild(currentDir: string | null, baseUrl: string): Promise<PreviousBuild | null> {
  if (!currentDir) return null;
  try {
    const info = JSON.parse(await fsp.readFile(path.join(currentDir, BUILD_INFO), 'utf8')) as { base_url?: string };
    return info.base_url === baseUrl ? { dir: currentDir, baseUrl } : null;
  } catch {
    return null;
  }
}

/**
 * Links the per-tool files of `aids` that exist in the previous build into `dir`; answers the aids whose
 * files were missing there (new tools), which the caller must render.
 */
export function linkUnchanged(prev: PreviousBuild, dir: string, aids: Iterable<string>): string[] {
  const missing: string[] = [];
  const made = new Set<string>();
  for (const aid of aids) {
    const files = perToolFiles(aid);
    if (!files.every((f) => existsSync(path.join(prev.dir, f)))) { missing.push(aid); continue; }
    for (const f of files) {
      const target = path.join(dir, f);
      const parent = path.dirname(target);
      if (!made.has(parent)) { mkdirSync(parent, { recursive: true }); made.add(parent); }
      linkSync(path.join(prev.dir, f), target);
    }
  }
  return missing;
}
