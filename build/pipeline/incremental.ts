// Incremental builds: a changed contract re-renders its own page and JSON; every other tool's files are
// hard-linked from the current build (no copy, no re-render). Shared files (indexes, discovery, search)
// are always written anew. Links are safe because nothing ever writes into a linked file: each build
// writes only files that do not exist yet in its own fresh folder.
import { linkSync, mkdirSync, promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { BUILD_INFO } from './dist-swap.ts';
import type { ToolContract } from '../model/contract.ts';
import { STATIC_TOOLS_DIR } from '../discovery/static-json.ts';
import { COMPRESSED_EXTENSIONS } from '../compress/precompress.ts';

/** The files that belong to exactly one tool, relative to a build folder: its page and its static JSON. */
export const perToolFiles = (aid: string) => ({
  html: `tools/${aid}/index.html`,
  json: `${STATIC_TOOLS_DIR}/${aid}.json`,
});

export interface PreviousBuild {
  dir: string;
}

/** The current build, if it was made for the same public URL (otherwise every page must change). */
export async function reusableBuild(currentDir: string | null, baseUrl: string): Promise<PreviousBuild | null> {
  if (!currentDir) return null;
  try {
    const info = JSON.parse(await fsp.readFile(path.join(currentDir, BUILD_INFO), 'utf8')) as { base_url?: string };
    return info.base_url === baseUrl ? { dir: currentDir } : null;
  } catch {
    return null;
  }
}

/** Aids whose per-tool files the previous build holds (one directory listing, not a stat per tool). */
function builtAids(prev: PreviousBuild): Set<string> {
  const json = new Set(readdirSync(path.join(prev.dir, STATIC_TOOLS_DIR)).map((n) => n.replace(/\.json$/, '')));
  return new Set(readdirSync(path.join(prev.dir, 'tools')).filter((aid) => json.has(aid)));
}

/** The tools that need their own files written: changed ones and ones the previous build lacks. */
export function toRender(prev: PreviousBuild, tools: ToolContract[], changed: Set<string>): ToolContract[] {
  const built = builtAids(prev);
  return tools.filter((t) => changed.has(t.identity.aid) || !built.has(t.identity.aid));
}

/**
 * Hard-links one kind of per-tool file of `aids` (all present in the previous build) into `dir`:
 * `html` (tools/<aid>/index.html, one folder each) on the main thread, `json` on the build worker, so
 * the two halves run in parallel.
 */
export function linkUnchanged(prev: PreviousBuild, dir: string, aids: Iterable<string>, kind: 'html' | 'json'): void {
  if (kind === 'json') {
    mkdirSync(path.join(dir, STATIC_TOOLS_DIR), { recursive: true });
    for (const aid of aids) linkWithCompressed(prev.dir, dir, perToolFiles(aid).json);
    return;
  }
  mkdirSync(path.join(dir, 'tools'), { recursive: true });
  for (const aid of aids) {
    const { html } = perToolFiles(aid);
    mkdirSync(path.dirname(path.join(dir, html)));
    linkWithCompressed(prev.dir, dir, html);
  }
}

/**
 * Links a file and the .br and .gz the previous build wrote beside it (a file under 1 KB has none), so
 * the compression pass finds them in its directory listing and never reads the file again.
 */
export function linkWithCompressed(prevDir: string, dir: string, file: string): void {
  linkSync(path.join(prevDir, file), path.join(dir, file));
  for (const ext of COMPRESSED_EXTENSIONS) {
    try {
      linkSync(path.join(prevDir, file + ext), path.join(dir, file + ext));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
