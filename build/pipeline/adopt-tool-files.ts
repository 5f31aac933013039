// The second and later incremental builds of one process do not link every unchanged tool's files into
// their fresh folder (a directory and six links per tool: at 10,000 tools most of a one-write rebuild,
// creating directories being the costly part). They take over the per-tool folders (`tools/` and the
// static JSON folder) of the build the current one was made from, which is no longer needed once the
// current one serves, and bring only the tools that changed since then up to date. What the new build
// holds is what linking would have made: the same files, most of them the same inodes.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { BUILD_INFO } from './dist-swap.ts';
import { COMPRESSED_EXTENSIONS } from '../compress/precompress.ts';
import { STATIC_TOOLS_DIR } from '../discovery/static-json.ts';
import { linkWithCompressed, perToolFiles } from './incremental.ts';

/** How a build was made, remembered for the next build of the same process. */
export interface Lineage {
  /** The build. */
  dir: string;
  /** The build it was made from: every tool it did not render has the same per-tool files (inodes) in both. */
  base: string;
  /** The tools whose own files it wrote. */
  rendered: ReadonlySet<string>;
  /** Its removal of older builds: settled before `base` is taken apart, which that pass might otherwise delete. */
  pruned: Promise<void>;
}

const TOOLS_DIR = 'tools';

interface Kind {
  folder: string;
  /** The aid a folder entry belongs to, or null for a file of no tool (compressed copies are not counted). */
  aidOf(name: string): string | null;
  file(aid: string): string;
  /** Removes every file of this aid. */
  remove(dir: string, aid: string): void;
}

const removeWithCompressed = (file: string) => {
  for (const ext of ['', ...COMPRESSED_EXTENSIONS]) rmSync(file + ext, { force: true });
};

const KINDS: Kind[] = [
  {
    folder: TOOLS_DIR,
    aidOf: (name) => name,
    file: (aid) => perToolFiles(aid).html,
    remove: (dir, aid) => rmSync(path.join(dir, TOOLS_DIR, aid), { recursive: true, force: true }),
  },
  {
    folder: STATIC_TOOLS_DIR,
    aidOf: (name) => (name.endsWith('.json') ? name.slice(0, -'.json'.length) : null),
    file: (aid) => perToolFiles(aid).json,
    remove: (dir, aid) => removeWithCompressed(path.join(dir, perToolFiles(aid).json)),
  },
];

/**
 * Moves the per-tool folders of `lineage.base` into `buildDir` and updates them to what the current build
 * `lineage.dir` holds for every tool of `aids` not in `render` (whose files it removes, to be written
 * anew); tools not in `aids` are dropped. Returns false, touching nothing, when `base` is not a complete
 * build any more; the caller then links every unchanged tool instead.
 */
export async function adoptToolFiles(
  lineage: Lineage,
  buildDir: string,
  aids: readonly string[],
  render: ReadonlySet<string>,
): Promise<boolean> {
  await lineage.pruned;
  const { base, dir: current } = lineage;
  const complete = [BUILD_INFO, ...KINDS.map((k) => k.folder)].every((p) => existsSync(path.join(base, p)));
  if (!complete) return false;
  // Marked incomplete first: from here on a crash leaves it to pruneBuilds; it is never served or reused.
  unlinkSync(path.join(base, BUILD_INFO));
  const wanted = new Set(aids);
  for (const kind of KINDS) {
    const to = path.join(buildDir, kind.folder);
    mkdirSync(path.dirname(to), { recursive: true });
    renameSync(path.join(base, kind.folder), to);
    const held = new Set<string>();
    for (const name of readdirSync(to)) {
      const aid = kind.aidOf(name);
      if (aid === null) continue;
      if (wanted.has(aid)) held.add(aid);
      else kind.remove(buildDir, aid);
    }
    for (const aid of aids) {
      const rel = kind.file(aid);
      if (render.has(aid)) {
        // Written anew below. Removed, never overwritten: the file may be an inode of the serving build.
        if (held.has(aid)) removeWithCompressed(path.join(buildDir, rel));
      } else if (lineage.rendered.has(aid) || !held.has(aid)) {
        // Changed in the current build (or missing here): take the current build's files.
        const file = path.join(buildDir, rel);
        if (held.has(aid)) removeWithCompressed(file);
        else mkdirSync(path.dirname(file), { recursive: true });
        linkWithCompressed(current, buildDir, rel);
      }
    }
  }
  return true;
}
