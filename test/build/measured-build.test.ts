// The benchmarks' build runs in a child process (build/bench/measured-build.ts) so its peak RSS is the
// build's own: it must really build, report what it measured, and fail loudly when the build fails.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { measureBuild } from '../../build/bench/measured-build.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

describe('measureBuild', () => {
  let cat: TempCatalog | undefined;
  afterEach(() => cat?.cleanup());

  it('builds the catalog in a child process and reports its time, files, phases and peak RSS', async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1'), sampleContract('npm-beta-v1')]);
    const r = await measureBuild(cat.catalogDir, cat.distDir);
    expect(existsSync(path.join(cat.distDir, 'tools/npm-alpha-v1/index.html'))).toBe(true);
    expect(r.files).toBeGreaterThanOrEqual(4);
    expect(r.secs).toBeGreaterThan(0);
    expect(r.phases).toHaveProperty('html');
    expect(r.phases).toHaveProperty('search');
    // A node process that loaded Eleventy and built a site: tens of MB at least, and not this process's figure.
    expect(r.peakMb).toBeGreaterThan(30);
    expect(r.peakMb).toBeLessThan(4096);
  }, 60_000);

  it("rejects with the build's own error when the catalog is invalid", async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1')]);
    await fsp.writeFile(path.join(cat.catalogDir, 'tools', 'npm-broken-v1.json'), '{ not json');
    await expect(measureBuild(cat.catalogDir, cat.distDir)).rejects.toThrow(/measured build failed:.*npm-broken-v1/s);
    expect(existsSync(cat.distDir)).toBe(false);
  }, 60_000);
});
