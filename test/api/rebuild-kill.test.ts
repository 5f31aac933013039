// Crash safety of admin writes and live rebuilds: a real server process (node api/main.ts)
// is killed with SIGKILL while writes and a rebuild are in flight. After each kill the catalog validates
// and holds every acknowledged write, and dist/ is one complete build (old or new, never a mix); after a
// restart the site holds every contract.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { createCatalogStore } from '../../build/catalog/catalog-store.ts';
import { checkToolFiles } from '../../build/catalog/validate-catalog.ts';
import { childEnv, nodeArgs, ROOT } from '../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';
const SECRET = 'kill-test-secret';

interface Child {
  proc: ChildProcess;
  url: string;
}

async function startChild(cat: TempCatalog): Promise<Child> {
  const [cmd, args] = nodeArgs('api/main.ts');
  const proc = spawn(cmd, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: BASE,
      CATALOG_DIR: cat.catalogDir,
      DIST_DIR: cat.distDir,
      DATA_DIR: cat.dataDir,
      ADMIN_SECRET: SECRET,
    }),
  });
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err.slice(-2000)}`)));
  });
  return { proc, url };
}

const kill = (c: Child) =>
  new Promise<void>((resolve) => {
    c.proc.once('exit', () => resolve());
    c.proc.kill('SIGKILL');
  });
const ingest = (c: Child, aid: string, task: string) =>
  fetch(`${c.url}/api/v1/ingest`, {
    method: 'POST',
    headers: { 'x-admin-secret': SECRET, 'content-type': 'application/json' },
    body: JSON.stringify(sampleContract(aid, { identity: { task } })),
  }).then(
    (r) => r.status,
    () => 0,
  );

/** dist/ is one complete build: build-info present and every tool it lists has its page and its JSON. */
async function expectCompleteDist(distDir: string): Promise<string[]> {
  const info = JSON.parse(await fsp.readFile(path.join(distDir, 'build-info.json'), 'utf8')) as { tools_count: number };
  const sitemap = await fsp.readFile(path.join(distDir, 'sitemap.xml'), 'utf8');
  const aids = [...sitemap.matchAll(/\/tools\/([a-z0-9._-]+-v1)\//g)].map((m) => m[1] as string);
  expect(aids.length).toBe(info.tools_count);
  for (const aid of aids) {
    expect(existsSync(path.join(distDir, `tools/${aid}/index.html`)), aid).toBe(true);
    expect(existsSync(path.join(distDir, `static/v1/tools/${aid}.json`)), aid).toBe(true);
  }
  const pages = (await fsp.readdir(path.join(distDir, 'tools'))).length;
  expect(pages).toBe(info.tools_count);
  return aids;
}

async function expectValidCatalog(catalogDir: string, acknowledged: Map<string, string>) {
  const files = await createCatalogStore({ dir: catalogDir }).readAll('tools');
  const { valid, errors } = checkToolFiles(files);
  expect(errors).toEqual([]);
  const byAid = new Map(valid.map((c) => [c.identity.aid, c]));
  for (const [aid, task] of acknowledged) expect(byAid.get(aid)?.identity.task, aid).toBe(task);
  return valid.map((c) => c.identity.aid);
}

describe('killing the server during writes and rebuilds', () => {
  let cat: TempCatalog;
  let child: Child | null = null;
  beforeAll(async () => {
    cat = await tempCatalog(Array.from({ length: 60 }, (_, i) => sampleContract(`npm-base-${i}-v1`)));
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
  });
  afterAll(async () => {
    if (child && child.proc.exitCode === null && child.proc.signalCode === null) await kill(child);
    await cat.cleanup();
  });

  it('restarts each time with a valid catalog and a complete dist/', async () => {
    const acknowledged = new Map<string, string>();
    // Kill 1: while writes stream in (some mid-write). Kill 2: while a rebuild runs.
    for (const round of [1, 2]) {
      child = await startChild(cat);
      const c = child;
      const sent: Promise<void>[] = [];
      let stop = false;
      const writer = (async () => {
        for (let i = 0; !stop && i < 200; i++) {
          const aid = `npm-r${round}-w${i}-v1`;
          const task = `Round ${round} write ${i}`;
          sent.push(
            ingest(c, aid, task).then((status) => {
              if (status === 200) acknowledged.set(aid, task);
            }),
          );
          await new Promise((r) => setTimeout(r, 15));
        }
      })();
      if (round === 1) {
        // Once writes are being acknowledged (however slow the machine), kill while more stream in.
        const seen = acknowledged.size;
        for (let i = 0; i < 3000 && acknowledged.size === seen; i++) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 100));
      } else {
        // Wait until a rebuild is running, then give it a moment to be mid-way.
        let running = false;
        for (const end = Date.now() + 60_000; Date.now() < end && !running; ) {
          const st = (await fetch(`${c.url}/admin/rebuild`, { headers: { 'x-admin-secret': SECRET } }).then(
            (r) => r.json(),
            () => ({}),
          )) as { running?: boolean };
          running = st.running === true;
          if (!running) await new Promise((r) => setTimeout(r, 10));
        }
        expect(running).toBe(true);
        await new Promise((r) => setTimeout(r, 150));
      }
      await kill(c);
      stop = true;
      await writer;
      await Promise.all(sent);
      expect(acknowledged.size).toBeGreaterThan(0);
      await expectValidCatalog(cat.catalogDir, acknowledged);
      await expectCompleteDist(cat.distDir);
    }
    // Restart: the site catches up with every contract in the catalog.
    child = await startChild(cat);
    const r = (await fetch(`${child.url}/health`).then((x) => x.json())) as { tools_count: number };
    const catalog = await expectValidCatalog(cat.catalogDir, acknowledged);
    expect(r.tools_count).toBe(catalog.length);
    let inSite: string[] = [];
    // A generous deadline: on a loaded machine the catch-up build can take many seconds.
    for (const end = Date.now() + 180_000; Date.now() < end; ) {
      const st = (await fetch(`${child.url}/admin/rebuild`, { headers: { 'x-admin-secret': SECRET } }).then((x) =>
        x.json(),
      )) as { running: boolean; queued: number };
      if (!st.running && st.queued === 0) {
        inSite = await expectCompleteDist(cat.distDir);
        if (inSite.length === catalog.length) break;
      }
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(inSite.sort()).toEqual(catalog.sort());
    for (const [aid, task] of acknowledged) {
      expect(await fsp.readFile(path.join(cat.distDir, `tools/${aid}/index.html`), 'utf8')).toContain(task);
    }
    await kill(child);
  }, 400_000);
});
