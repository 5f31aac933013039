// A run of incremental builds, as the API's rebuilds make them one after another in one process, must
// leave exactly the files a full build of the same catalog writes, and must never change the build that
// was serving while they ran (its files are shared with the new one as hard links).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { distTree, treeDifferences } from '../helpers/dist-tree.ts';
import { sampleContract, type TempCatalog, tempCatalog, writeContract } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';
// Long enough that pages and JSON get compressed copies (build/compress/precompress.ts).
const long = (aid: string, task: string, score = 0.9): ToolContract =>
  sampleContract(aid, {
    identity: { task: `${task} ${'with a long description of what it does '.repeat(10)}` },
    trust: { reliability_score: score },
  });

describe('incremental builds against a full build', () => {
  let cat: TempCatalog;
  const steps: { name: string; phases: Record<string, number>; differences: string[]; servingChanged: string[] }[] = [];

  /** Applies a change to the catalog, builds incrementally, and compares with a full build of the result. */
  async function step(name: string, changedAids: string[], change: () => Promise<void>) {
    const serving = await fsp.realpath(cat.distDir);
    const servingBefore = await distTree(serving);
    await change();
    const r = await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE, changedAids });
    expect(r.incremental).toBe(true);
    await r.pruned;
    const full = path.join(cat.root, `full-${steps.length}`);
    await build({ catalogDir: cat.catalogDir, distDir: full, baseUrl: BASE });
    const [a, b] = await Promise.all([distTree(await fsp.realpath(cat.distDir)), distTree(await fsp.realpath(full))]);
    steps.push({
      name,
      phases: r.phases,
      differences: treeDifferences(a, b),
      servingChanged: treeDifferences(servingBefore, await distTree(serving)),
    });
  }

  beforeAll(async () => {
    const tools = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? long(`npm-t${i}-v1`, `Task ${i}`, 0.5 + i / 100) : sampleContract(`npm-t${i}-v1`),
    );
    cat = await tempCatalog(tools);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
    const put = (c: ToolContract) => writeContract(cat.catalogDir, c);
    const remove = (aid: string) => fsp.rm(path.join(cat.catalogDir, 'tools', `${aid}.json`));
    await step('change one, add one', ['npm-t1-v1', 'npm-new-v1'], async () => {
      await put(long('npm-t1-v1', 'Changed first'));
      await put(long('npm-new-v1', 'Brand new'));
    });
    await step('change another, remove one', ['npm-t3-v1', 'npm-t4-v1'], async () => {
      await put(long('npm-t3-v1', 'Changed third', 0.99));
      await remove('npm-t4-v1');
    });
    await step('change the first again, bring the removed one back, remove the new one', ['npm-t1-v1'], async () => {
      await put(long('npm-t1-v1', 'Changed first twice'));
      await put(long('npm-t4-v1', 'Back again'));
      await remove('npm-new-v1');
    });
    await step('nothing changed', [], async () => {});
    await step('change one more', ['npm-t5-v1'], async () => {
      await put(long('npm-t5-v1', 'Changed fifth', 0.1));
    });
  }, 120_000);
  afterAll(() => cat?.cleanup());

  it('leaves the files of a full build after each step', () => {
    for (const s of steps) expect(s.differences, s.name).toEqual([]);
  });

  it('never changes the build that served while it ran', () => {
    for (const s of steps) expect(s.servingChanged, s.name).toEqual([]);
  });

  it('links the first incremental build and takes over the per-tool folders in the ones after it', () => {
    expect(steps.map((s) => ['link' in s.phases, 'adopt' in s.phases])).toEqual([
      [true, false],
      [false, true],
      [false, true],
      [false, true],
      [false, true],
    ]);
  });

  it('keeps the current build and the one before it, no more', async () => {
    const builds = await fsp.readdir(`${cat.distDir}.builds`);
    expect(builds).toHaveLength(2);
    expect(builds).toContain(path.basename(await fsp.realpath(cat.distDir)));
  });
});
