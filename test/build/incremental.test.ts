// Incremental builds re-render only changed and new tools, link the rest, and never touch the old build.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { sampleContract, type TempCatalog, tempCatalog, writeContract } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';

describe('incremental build', () => {
  let cat: TempCatalog;
  let oldDir: string;
  let newDir: string;
  beforeAll(async () => {
    cat = await tempCatalog(Array.from({ length: 30 }, (_, i) => sampleContract(`npm-t${i}-v1`)));
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
    oldDir = await fsp.realpath(cat.distDir);
    await writeContract(
      cat.catalogDir,
      sampleContract('npm-t1-v1', { identity: { task: 'Completely new task text' } }),
    );
    await writeContract(cat.catalogDir, sampleContract('npm-added-v1'));
    await fsp.rm(path.join(cat.catalogDir, 'tools', 'npm-t2-v1.json'));
    const r = await build({
      catalogDir: cat.catalogDir,
      distDir: cat.distDir,
      baseUrl: BASE,
      changedAids: ['npm-t1-v1'],
    });
    expect(r.incremental).toBe(true);
    newDir = await fsp.realpath(cat.distDir);
  });
  afterAll(() => cat.cleanup());

  const read = (dir: string, p: string) => fsp.readFile(path.join(dir, p), 'utf8');

  it('re-renders the changed tool and renders the new one', async () => {
    expect(await read(newDir, 'tools/npm-t1-v1/index.html')).toContain('Completely new task text');
    expect(JSON.parse(await read(newDir, 'static/v1/tools/npm-t1-v1.json')).identity.task).toBe(
      'Completely new task text',
    );
    expect(await read(newDir, 'tools/npm-added-v1/index.html')).toContain('<h1>added</h1>');
    const info = JSON.parse(await read(newDir, 'build-info.json'));
    expect(info).toMatchObject({ incremental: true, rendered_tools: 2, tools_count: 30 });
  });

  it('drops the removed tool everywhere', async () => {
    await expect(fsp.access(path.join(newDir, 'tools/npm-t2-v1/index.html'))).rejects.toThrow();
    await expect(fsp.access(path.join(newDir, 'static/v1/tools/npm-t2-v1.json'))).rejects.toThrow();
    expect(await read(newDir, 'index.html')).not.toContain('npm-t2-v1');
    expect(await read(newDir, 'sitemap.xml')).not.toContain('npm-t2-v1');
    expect(await read(newDir, 'index.html')).toContain('/tools/npm-added-v1/');
  });

  it('links unchanged tools from the previous build and leaves that build untouched', async () => {
    const [a, b] = await Promise.all([
      fsp.stat(path.join(oldDir, 'tools/npm-t5-v1/index.html')),
      fsp.stat(path.join(newDir, 'tools/npm-t5-v1/index.html')),
    ]);
    expect(b.ino).toBe(a.ino);
    expect(await read(oldDir, 'tools/npm-t1-v1/index.html')).toContain('Does t1 things');
    expect(await read(oldDir, 'tools/npm-t1-v1/index.html')).not.toContain('Completely new');
  });

  it('links the compressed copies of unchanged files (both threads) and writes new ones for changed files', async () => {
    for (const file of ['tools/npm-t5-v1/index.html', 'static/v1/tools/npm-t5-v1.json']) {
      for (const ext of ['.br', '.gz']) {
        const [a, b] = await Promise.all([
          fsp.stat(path.join(oldDir, file + ext)),
          fsp.stat(path.join(newDir, file + ext)),
        ]);
        expect(b.ino, file + ext).toBe(a.ino);
      }
    }
    const changed = 'static/v1/tools/npm-t1-v1.json';
    const [a, b] = await Promise.all([
      fsp.stat(path.join(oldDir, `${changed}.br`)),
      fsp.stat(path.join(newDir, `${changed}.br`)),
    ]);
    expect(b.ino).not.toBe(a.ino);
    const info = JSON.parse(await read(newDir, 'build-info.json'));
    // Unchanged tools' files are not read again (their copies came with them): only new files were compressed.
    expect(info.compressed.files).toBeGreaterThan(0);
    expect(info.compressed.files).toBeLessThan(30);
  });

  it('links shared files whose bytes did not change, with their copies, and writes the ones that did', async () => {
    const ino = async (dir: string, p: string) => (await fsp.stat(path.join(dir, p))).ino;
    for (const file of ['search/search.js', 'schema/tool.schema.json', 'robots.txt']) {
      expect(await ino(newDir, file), file).toBe(await ino(oldDir, file));
    }
    for (const file of ['search/search.js.br', 'schema/tool.schema.json.gz']) {
      expect(await ino(newDir, file), file).toBe(await ino(oldDir, file));
    }
    for (const file of ['sitemap.xml', 'search/manifest.json', 'index.html.br']) {
      expect(await ino(newDir, file), file).not.toBe(await ino(oldDir, file));
    }
    // A page Eleventy wrote again with the same bytes is a new file, but its copies are the old ones.
    expect(await ino(newDir, 'llmo-apis/index.html')).not.toBe(await ino(oldDir, 'llmo-apis/index.html'));
    expect(await ino(newDir, 'llmo-apis/index.html.br')).toBe(await ino(oldDir, 'llmo-apis/index.html.br'));
  });

  it('falls back to a full build when the public URL changed', async () => {
    const r = await build({
      catalogDir: cat.catalogDir,
      distDir: cat.distDir,
      baseUrl: 'https://other.example',
      changedAids: [],
    });
    expect(r.incremental).toBe(false);
    expect(await read(cat.distDir, 'tools/npm-t5-v1/index.html')).toContain('https://other.example/tools/npm-t5-v1/');
  });
});
