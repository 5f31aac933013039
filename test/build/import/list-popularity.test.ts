// npm run popularity: trust.popularity from offline package lists, on the importer's percentile scale, written
// through the catalog store. Real files: small lists in test/fixtures/package-lists, a temporary catalog.
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { corpusPath, popularityPercentiles, type RawLine } from '../../../build/bench/corpus.ts';
import type { ToolContract } from '../../../build/model/contract.ts';
import { validateContract } from '../../../build/model/validate-contract.ts';
import { npmPercentile, pypiRankPercentile } from '../../../build/translate/download-percentile.ts';
import { ROOT, runTs } from '../../helpers/run-ts.ts';
import { toolContract } from '../../helpers/tool-contract.ts';

const LISTS = path.join(ROOT, 'test/fixtures/package-lists');
const NPM_LIST = path.join(LISTS, 'npm.tsv');
const PYPI_LIST = path.join(LISTS, 'pypi.tsv');

describe('PyPI rank percentile', () => {
  it('places a rank among the 15,000 where the benchmark corpus places it, and the unranked at its tail', () => {
    const raws = gunzipSync(readFileSync(corpusPath()))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RawLine);
    const exact = popularityPercentiles(raws);
    let worst = 0;
    raws.forEach((raw, i) => {
      if (raw.registry !== 'pypi') return;
      const estimate = pypiRankPercentile(raw.download_rank ?? null);
      if (raw.download_rank == null) expect(estimate).toBeCloseTo(exact[i]!, 3);
      else worst = Math.max(worst, Math.abs(estimate - exact[i]!));
    });
    expect(worst).toBeLessThan(0.005);
    expect(pypiRankPercentile(1)).toBeGreaterThan(pypiRankPercentile(100));
    expect(pypiRankPercentile(15_000)).toBeGreaterThan(pypiRankPercentile(null));
  });

  it('keeps npm on the corpus scale: 0 below its least downloaded, 1 at its most', () => {
    expect(npmPercentile(900)).toBe(0);
    expect(npmPercentile(156_841)).toBe(0.5);
    expect(npmPercentile(3_000_000_000)).toBe(1);
  });
});

describe('npm run popularity', { timeout: 120_000 }, () => {
  let catalog: string;
  const file = (aid: string) => path.join(catalog, 'tools', `${aid}.json`);
  const read = async (aid: string) => JSON.parse(await fsp.readFile(file(aid), 'utf8')) as ToolContract;

  beforeEach(async () => {
    catalog = await fsp.mkdtemp(path.join(os.tmpdir(), 'popularity-'));
    await fsp.mkdir(path.join(catalog, 'tools'));
    const verified = toolContract('npm-left-pad-v1', 'npm', { install_cmd: 'npm install left-pad' });
    verified.record = {
      verified: true,
      verification: {
        status: 'passed',
        level: 'runs',
        reason: 'installed and did its task offline',
        checked_at: '2026-11-25T02:02:41.782Z',
        runtime: 'node 22.23',
        install_ms: 1,
        execute_ms: 1,
      },
    } as ToolContract['record'];
    const newer = toolContract('npm-marked-v1', 'npm', {});
    newer.trust.popularity = 0.5;
    newer.record = {
      verified: true,
      popularity_source: 'npm downloads API',
      popularity_measured_at: '2027-01-05T00:00:00Z',
    };
    const tools = [
      verified,
      newer,
      toolContract('npm-tiny-thing-v1', 'npm', {}),
      toolContract('npm-absent-v1', 'npm', {}),
      toolContract('pypi-pyyaml-v1', 'pypi', {}),
      toolContract('pypi-some-rare-pkg-v1', 'pypi', {}),
      toolContract('github-thing-v1', 'github', {}),
    ];
    for (const t of tools) await fsp.writeFile(file(t.identity.aid), JSON.stringify(t, null, 2));
  });

  afterEach(async () => {
    await fsp.rm(catalog, { recursive: true, force: true });
  });

  const run = (...args: string[]) => runTs('build/cli/popularity.ts', ['--catalog', catalog, ...args]);

  it('fills npm and PyPI contracts from the lists, says where each figure came from, and validates', async () => {
    const dry = await run('--npm', NPM_LIST, '--pypi', PYPI_LIST, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/would update 4, unchanged 0, not listed 1, kept newer 1, no list for the platform 1/);
    expect((await read('npm-left-pad-v1')).trust.popularity).toBeUndefined();

    const r = await run('--npm', NPM_LIST, '--pypi', PYPI_LIST, '--json');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.aid === 'npm-absent-v1')).toMatchObject({ outcome: 'not listed' });

    const leftPad = await read('npm-left-pad-v1');
    expect(leftPad.trust.popularity).toBe(npmPercentile(4_000_000));
    expect(leftPad.record?.popularity_source).toBe(
      'npm package list npm.tsv (2026-11): 4,000,000 downloads a month, percentile among the 60,000 most downloaded npm packages',
    );
    // The PyPI list's newest month says when the lists were taken.
    expect(leftPad.record?.popularity_measured_at).toBe('2026-11-01T00:00:00.000Z');
    // Evidence already stored stays as it was.
    expect(leftPad.record?.verification?.checked_at).toBe('2026-11-25T02:02:41.782Z');
    expect((await read('npm-tiny-thing-v1')).trust.popularity).toBe(0);
    // PyPI names compare as PEP 503 names: PyYAML is pyyaml, some_rare.pkg is some-rare-pkg.
    const yaml = await read('pypi-pyyaml-v1');
    expect(yaml.trust.popularity).toBe(pypiRankPercentile(15));
    expect(yaml.record?.popularity_source).toMatch(/pypi\.tsv \(2026-11\): download rank 15 of 15,000/);
    const rare = await read('pypi-some-rare-pkg-v1');
    expect(rare.trust.popularity).toBe(pypiRankPercentile(null));
    expect(rare.record?.popularity_source).toMatch(/below the 15,000 most downloaded/);
    // A figure measured after the lists is kept; platforms without a list are left alone.
    expect((await read('npm-marked-v1')).trust.popularity).toBe(0.5);
    expect((await read('github-thing-v1')).trust.popularity).toBeUndefined();
    for (const aid of ['npm-left-pad-v1', 'pypi-pyyaml-v1', 'pypi-some-rare-pkg-v1'])
      expect(validateContract(await read(aid))).toEqual([]);

    const again = await run('--npm', NPM_LIST, '--pypi', PYPI_LIST);
    expect(again.stderr).toMatch(/updated 0, unchanged 4/);
  });

  it('takes --month, limits to the aids given, and needs a month when only the npm list is given', async () => {
    expect((await run('--npm', NPM_LIST)).code).toBe(2);
    const r = await run('--npm', NPM_LIST, '--month', '2026-10', 'npm-tiny-thing-v1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/updated 1, unchanged 0, not listed 0/);
    expect((await read('npm-tiny-thing-v1')).record?.popularity_measured_at).toBe('2026-10-01T00:00:00.000Z');
    expect((await read('npm-left-pad-v1')).trust.popularity).toBeUndefined();
  });

  it('refuses a list without the columns it needs, bad options, and prints its usage on --help', async () => {
    const bad = path.join(catalog, 'bad.tsv');
    await fsp.writeFile(bad, 'name\tversion\tdownloads\nleft-pad\t1\t5\n');
    const r = await run('--npm', bad, '--month', '2026-11');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/names no column downloads_a_month/);
    expect((await run('--npm', NPM_LIST, '--month', 'November')).code).toBe(2);
    expect((await run('--npm', path.join(catalog, 'none.tsv'))).stderr).toMatch(/no such file/);
    expect((await run('--frobnicate')).code).toBe(2);
    const help = await runTs('build/cli/popularity.ts', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage: npm run popularity/);
    expect((await read('npm-left-pad-v1')).trust.popularity).toBeUndefined();
  });
});
