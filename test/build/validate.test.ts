// `npm run validate`: one line per error in the documented format, exit 1 on any error.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runTs } from '../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog, writeContract } from '../helpers/temp-catalog.ts';

const validate = (cwd: string, args: string[] = []) =>
  runTs('build/cli/validate.ts', args, { cwd, env: { CATALOG_DIR: 'catalog' } });

describe('npm run validate', () => {
  let cat: TempCatalog;
  afterEach(() => cat?.cleanup());

  it('passes a valid catalog with exit 0', async () => {
    cat = await tempCatalog([sampleContract('npm-good-v1'), sampleContract('npm-other-v1')]);
    const r = await validate(cat.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('2 file(s) checked, 2 valid, 0 error(s)');
  });

  it('prints one line per error with file, JSON pointer and message, and exits 1', async () => {
    cat = await tempCatalog([sampleContract('npm-good-v1')]);
    const bad = sampleContract('npm-x-v1') as unknown as {
      action: Record<string, unknown>;
      identity: Record<string, unknown>;
    };
    bad.action.install_cmd = 42;
    bad.identity.colour = 'blue';
    await writeContract(cat.catalogDir, bad);
    await writeContract(cat.catalogDir, sampleContract('npm-mismatch-v1'), 'npm-renamed-v1');
    await fsp.writeFile(path.join(cat.catalogDir, 'tools', 'npm-broken-v1.json'), '{"identity": ');
    const r = await validate(cat.root);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContain('catalog/tools/npm-x-v1.json: /action/install_cmd: must be string or null');
    expect(lines).toContain('catalog/tools/npm-x-v1.json: /identity/colour: unknown field');
    expect(lines).toContain(
      'catalog/tools/npm-renamed-v1.json: /identity/aid: "npm-mismatch-v1" must equal the file name "npm-renamed-v1"',
    );
    expect(lines.some((l) => l.startsWith('catalog/tools/npm-broken-v1.json: /: not valid JSON'))).toBe(true);
    expect(lines).toHaveLength(4);
  });

  it('reports aids that differ only by case, bad SPDX expressions and bad enums', async () => {
    cat = await tempCatalog([sampleContract('npm-dup-v1', { identity: { license: 'MIT OR' } })]);
    const upper = sampleContract('npm-dup-v1');
    (upper.identity as { aid: string }).aid = 'NPM-Dup-v1';
    await writeContract(cat.catalogDir, upper, 'NPM-Dup-v1');
    await writeContract(cat.catalogDir, sampleContract('npm-plat-v1', { identity: { platform: 'cargo' as never } }));
    await fsp.writeFile(path.join(cat.catalogDir, 'tools', 'npm-null-v1.json'), 'null\n');
    const r = await validate(cat.root);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/NPM-Dup-v1\.json: \/identity\/aid: must be lowercase/);
    expect(r.stdout).toMatch(/duplicates the aid of catalog\/tools\/(NPM-Dup|npm-dup)-v1\.json/);
    expect(r.stdout).toContain(
      'catalog/tools/npm-dup-v1.json: /identity/license: "MIT OR" is not a valid SPDX license expression',
    );
    expect(r.stdout).toContain(
      'catalog/tools/npm-plat-v1.json: /identity/platform: must be one of github, pypi, npm, catalog',
    );
    expect(r.stdout).toContain('catalog/tools/npm-null-v1.json: /: must be a JSON object');
  });

  it('checks only the given paths', async () => {
    cat = await tempCatalog([sampleContract('npm-good-v1')]);
    const bad = sampleContract('npm-bad-v1', { trust: { reliability_score: 7 } });
    const file = await writeContract(cat.catalogDir, bad);
    const ok = await validate(cat.root, [path.join(cat.catalogDir, 'tools', 'npm-good-v1.json')]);
    expect(ok.code).toBe(0);
    const r = await validate(cat.root, [file]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim()).toBe('catalog/tools/npm-bad-v1.json: /trust/reliability_score: must be <= 1');
  });

  it('passes on the bundled catalog, which holds at least 150 real tools across github, pypi and npm', async () => {
    const r = await validate(ROOT);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
    const names = await fsp.readdir(path.join(ROOT, 'catalog/tools'));
    expect(names.length).toBeGreaterThanOrEqual(150);
    for (const platform of ['github', 'pypi', 'npm']) {
      expect(names.filter((n) => n.startsWith(`${platform}-`)).length).toBeGreaterThanOrEqual(20);
    }
  });
});
