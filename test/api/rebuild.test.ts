// Live rebuilds: the scheduler is single-flight and coalesces (unit, with a fake build), and over HTTP a
// burst of writes lands in the static site through few incremental builds.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRebuildScheduler, staleAids } from '../../api/rebuild/scheduler.ts';
import { ROOT } from '../helpers/run-ts.ts';
import { sampleContract, tempCatalog, writeContract } from '../helpers/temp-catalog.ts';
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

function fakeBuild(ms = 30, failFirst = 0) {
  const runs: string[][] = [];
  let active = 0;
  let maxActive = 0;
  let failures = failFirst;
  return {
    runs,
    maxActive: () => maxActive,
    run: async (aids: string[]) => {
      runs.push([...aids].sort());
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, ms));
      active--;
      if (failures-- > 0) throw new Error('disk full');
      return { ms, toolsCount: 1, incremental: true };
    },
  };
}

describe('rebuild scheduler', () => {
  it('runs one build at a time and folds every request made during a build into exactly one more', async () => {
    const b = fakeBuild(60);
    const s = createRebuildScheduler({ run: b.run, debounceMs: 5 });
    s.request(['a']);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.status().running).toBe(true);
    for (const aid of ['b', 'c', 'd', 'b']) s.request([aid]);
    expect(s.status().queued).toBe(3);
    await s.idle();
    expect(b.runs).toEqual([['a'], ['b', 'c', 'd']]);
    expect(b.maxActive()).toBe(1);
    expect(s.status()).toMatchObject({
      running: false,
      queued: 0,
      builds: 2,
      failures: 0,
      last: { aids: 3, incremental: true },
    });
    await s.close();
  });

  it('debounces a burst into one build', async () => {
    const b = fakeBuild(10);
    const s = createRebuildScheduler({ run: b.run, debounceMs: 30 });
    for (let i = 0; i < 50; i++) s.request([`t${i}`]);
    await s.idle();
    expect(b.runs).toHaveLength(1);
    expect(b.runs[0]).toHaveLength(50);
    await s.close();
  });

  it('keeps the aids of a failed build and retries them', async () => {
    const b = fakeBuild(5, 1);
    const lines: string[] = [];
    const s = createRebuildScheduler({ run: b.run, debounceMs: 1, retryMs: 50, log: (l) => lines.push(l) });
    s.request(['x', 'y']);
    await s.idle();
    expect(s.status()).toMatchObject({ failures: 1, queued: 2, last_error: 'disk full' });
    expect(lines[0]).toMatch(/rebuild failed \(2 aid\(s\) kept/);
    await new Promise((r) => setTimeout(r, 120));
    await s.idle();
    expect(b.runs).toEqual([
      ['x', 'y'],
      ['x', 'y'],
    ]);
    expect(s.status()).toMatchObject({ builds: 1, queued: 0, last_error: null });
    await s.close();
  });
});

describe('catching up at start', () => {
  it('finds the catalog files changed after the served build began', async () => {
    const cat = await tempCatalog([sampleContract('npm-old-v1'), sampleContract('npm-new-v1')]);
    try {
      expect(await staleAids(cat.catalogDir, cat.distDir)).toEqual([]);
      await fsp.mkdir(cat.distDir, { recursive: true });
      const info = path.join(cat.distDir, 'build-info.json');
      await fsp.writeFile(info, JSON.stringify({ build_ms: 5000, incremental: false }));
      const hourAgo = new Date(Date.now() - 3_600_000);
      await fsp.utimes(path.join(cat.catalogDir, 'tools/npm-old-v1.json'), hourAgo, hourAgo);
      // Written while that build ran (4 s before it finished): possibly missing from it.
      const during = new Date(Date.now() - 4_000);
      await fsp.utimes(path.join(cat.catalogDir, 'tools/npm-new-v1.json'), during, during);
      await writeContract(cat.catalogDir, sampleContract('npm-after-v1'));
      expect((await staleAids(cat.catalogDir, cat.distDir)).sort()).toEqual(['npm-after-v1', 'npm-new-v1']);
      // A live rebuild's snapshot predates its start: files from just before it count too.
      const before = new Date(Date.now() - 12_000);
      await fsp.utimes(path.join(cat.catalogDir, 'tools/npm-old-v1.json'), before, before);
      expect(await staleAids(cat.catalogDir, cat.distDir)).not.toContain('npm-old-v1');
      await fsp.writeFile(info, JSON.stringify({ build_ms: 5000, incremental: true }));
      expect(await staleAids(cat.catalogDir, cat.distDir)).toContain('npm-old-v1');
    } finally {
      await cat.cleanup();
    }
  });
});

describe('rebuilds after admin writes', () => {
  let s: AdminServer;
  beforeAll(async () => {
    s = await startAdminServer({ apis: false, ip: '10.9.0.3' });
    await fsp.cp(path.join(ROOT, 'catalog/schema'), path.join(s.catalogDir, 'schema'), { recursive: true });
  });
  afterAll(async () => {
    await settled(s);
    await s.cleanup();
  });

  const dist = (p: string) => path.join(s.distDir, p);

  it('puts every write of a burst into the static site with few builds, and the API sees each at once', async () => {
    const aids = Array.from({ length: 12 }, (_, i) => `npm-burst-${i}-v1`);
    for (const aid of aids) {
      const r = await s.admin(
        'POST',
        '/api/v1/ingest',
        sampleContract(aid, { identity: { task: `Burst tool ${aid}` } }),
      );
      expect(r.body.created).toBe(true);
      expect((await s.json(`/api/v1/tools/${aid}`)).status).toBe(200);
    }
    await settled(s);
    const status = (await s.admin('GET', '/admin/rebuild')).body;
    expect(status).toMatchObject({ running: false, queued: 0, failures: 0 });
    expect(status.builds).toBeGreaterThanOrEqual(1);
    expect(status.builds).toBeLessThanOrEqual(4);
    const info = JSON.parse(await fsp.readFile(dist('build-info.json'), 'utf8'));
    expect(info.tools_count).toBe(8 + aids.length);
    const sitemap = await fsp.readFile(dist('sitemap.xml'), 'utf8');
    for (const aid of aids) {
      expect(await fsp.readFile(dist(`tools/${aid}/index.html`), 'utf8')).toContain(`Burst tool ${aid}`);
      expect(JSON.parse(await fsp.readFile(dist(`static/v1/tools/${aid}.json`), 'utf8')).identity.task).toBe(
        `Burst tool ${aid}`,
      );
      expect(sitemap).toContain(`/tools/${aid}/`);
    }
    // Served over HTTP too (dist/ is resolved per request).
    expect((await s.fetch(`/tools/${aids[0]}/`)).status).toBe(200);
  });

  it('re-renders a replaced contract incrementally and serves the schema files', async () => {
    await s.admin(
      'POST',
      '/api/v1/ingest',
      sampleContract('npm-burst-0-v1', { identity: { task: 'Second version of the task' } }),
    );
    await settled(s);
    expect(await fsp.readFile(dist('tools/npm-burst-0-v1/index.html'), 'utf8')).toContain('Second version of the task');
    const info = JSON.parse(await fsp.readFile(dist('build-info.json'), 'utf8'));
    expect(info).toMatchObject({ incremental: true, rendered_tools: 1 });
    const schema = await s.fetch('/schema/tool.schema.json');
    expect(schema.status).toBe(200);
    expect(await schema.json()).toEqual(
      JSON.parse(await fsp.readFile(path.join(ROOT, 'catalog/schema/tool.schema.json'), 'utf8')),
    );
    const guide = await s.json('/api/v1/contribute');
    expect(guide.body.pull_request.schema_url).toBe('https://catalog.example/schema/tool.schema.json');
  });
});
