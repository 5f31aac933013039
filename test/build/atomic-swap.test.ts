// A failed or interrupted build leaves the previous dist/ serving intact; a finished one swaps in whole.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build, CatalogInvalidError } from '../../build/pipeline/build.ts';
import { buildsDirOf } from '../../build/pipeline/dist-swap.ts';
import { childEnv, nodeArgs, ROOT } from '../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog, writeContract } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';
const info = async (dist: string) => JSON.parse(await fsp.readFile(path.join(dist, 'build-info.json'), 'utf8'));

describe('atomic swap of dist/', () => {
  let cat: TempCatalog;
  afterEach(() => cat?.cleanup());

  it('keeps the previous dist/ when the catalog is invalid', async () => {
    cat = await tempCatalog([sampleContract('npm-one-v1')]);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
    const before = await fsp.realpath(cat.distDir);
    await writeContract(cat.catalogDir, { identity: { aid: 'npm-bad-v1' } }, 'npm-bad-v1');
    await expect(build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE })).rejects.toBeInstanceOf(
      CatalogInvalidError,
    );
    expect(await fsp.realpath(cat.distDir)).toBe(before);
    expect((await info(cat.distDir)).tools_count).toBe(1);
    expect(await fsp.readdir(buildsDirOf(cat.distDir))).toEqual([path.basename(before)]);
  });

  it('keeps the previous dist/ complete when a build process is killed mid-way, and the next build cleans up', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => sampleContract(`npm-k${i}-v1`));
    cat = await tempCatalog([sampleContract('npm-first-v1')]);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
    const before = await fsp.realpath(cat.distDir);
    const indexBefore = await fsp.readFile(path.join(cat.distDir, 'index.html'), 'utf8');
    for (const c of many) await writeContract(cat.catalogDir, c);

    const [cmd, args] = nodeArgs('build/cli/build.ts');
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: childEnv({ CATALOG_DIR: cat.catalogDir, DIST_DIR: cat.distDir, BASE_URL: BASE }),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Kill once the new build folder holds some output but before it can finish.
    const deadline = Date.now() + 30_000;
    let partial: string | undefined;
    while (Date.now() < deadline && !partial) {
      const names = await fsp.readdir(buildsDirOf(cat.distDir));
      for (const n of names) {
        const dir = path.join(buildsDirOf(cat.distDir), n);
        if (dir !== before && (await fsp.readdir(path.join(dir, 'static/v1/tools')).catch(() => [])).length > 100)
          partial = dir;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await exited;
    expect(partial).toBeDefined();
    await expect(fsp.access(path.join(partial as string, 'build-info.json'))).rejects.toThrow();

    expect(await fsp.realpath(cat.distDir)).toBe(before);
    expect((await info(cat.distDir)).tools_count).toBe(1);
    expect(await fsp.readFile(path.join(cat.distDir, 'index.html'), 'utf8')).toBe(indexBefore);

    await (await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE })).pruned;
    expect((await info(cat.distDir)).tools_count).toBe(3001);
    const left = await fsp.readdir(buildsDirOf(cat.distDir));
    expect(left).not.toContain(path.basename(partial as string));
    expect(left.length).toBeLessThanOrEqual(2);
  }, 180_000); // three builds, one of 3,001 tools: generous for a loaded machine
});
