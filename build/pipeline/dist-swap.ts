// dist/ is a symlink to one complete build under `<dist>.builds/`. A new build is written beside it and
// the link is replaced by rename(2), which is atomic: readers and a crash see the old build or the new
// one, never a mix and never nothing.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export const buildsDirOf = (distDir: string) => `${distDir}.builds`;

/** A fresh, empty folder for the next build. */
export async function createBuildDir(distDir: string): Promise<string> {
  const dir = path.join(buildsDirOf(distDir), `${Date.now()}-${randomBytes(3).toString('hex')}`);
  await fsp.mkdir(dir, { recursive: true });
  return dir;
}

/** The folder dist/ points at now, or null when there is no complete build yet. */
export async function currentBuildDir(distDir: string): Promise<string | null> {
  try {
    return await fsp.realpath(distDir);
  } catch {
    return null;
  }
}

export async function swapIn(distDir: string, buildDir: string): Promise<void> {
  const stat = await fsp.lstat(distDir).catch(() => null);
  if (stat && !stat.isSymbolicLink()) {
    // A plain folder from elsewhere (first run after an older layout): keep it as a build, once.
    const kept = path.join(buildsDirOf(distDir), `kept-${Date.now()}`);
    await fsp.rename(distDir, kept);
  }
  const link = `${distDir}.link-${randomBytes(3).toString('hex')}`;
  await fsp.symlink(path.relative(path.dirname(distDir), buildDir), link, 'dir');
  await fsp.rename(link, distDir);
}

/** Removes builds other than the current one and the newest `keep` others (interrupted ones included). */
export async function pruneBuilds(distDir: string, keep = 1): Promise<void> {
  const current = await currentBuildDir(distDir);
  const root = buildsDirOf(distDir);
  const names = (await fsp.readdir(root).catch(() => [])).sort().reverse();
  let kept = 0;
  for (const name of names) {
    const dir = path.join(root, name);
    if (current && path.basename(current) === name) continue;
    if (kept < keep && !name.startsWith('kept-') && (await isComplete(dir))) {
      kept++;
      continue;
    }
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

export const BUILD_INFO = 'build-info.json';

async function isComplete(dir: string): Promise<boolean> {
  return fsp.access(path.join(dir, BUILD_INFO)).then(
    () => true,
    () => false,
  );
}
