// npm run verify:worker as real processes, running real sandboxes against a fake npm registry on loopback:
// - Redis (BullMQ): an API server process and two workers on one Redis. POST /api/v1/admin/verify queues six
//   tools; each job runs exactly once (one install per package at the registry, one "started" line in all),
//   both workers take jobs, and the evidence reaches the server through the normal write path (the Redis
//   overlay's change notice), so the API serves it.
// - A worker SIGKILLed during a job: its lock expires, the other worker's stalled-job check takes the job
//   back, and it finishes on the second attempt.
// - Files (no STORAGE_URL): a worker beside an in-process server writes the contract file; the server's
//   catalog watcher serves it. A second worker on the same DATA_DIR is refused.
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketStatus } from '../../../build/verify/queue/types.ts';
import { sandboxUnavailable } from '../../../build/verify/sandbox.ts';
import { type AdminServer, SECRET, settled, startAdminServer } from '../../api/admin-helpers.ts';
import { type FakeRegistry, startFakeNpmRegistry } from '../../helpers/fake-npm-registry.ts';
import {
  type ApiProcess,
  prepareSite,
  type RedisProcess,
  type SiteRoot,
  startApiProcess,
  startRedis,
} from '../../helpers/redis.ts';
import { childEnv, nodeArgs, ROOT } from '../../helpers/run-ts.ts';
import { toolContract } from '../../helpers/tool-contract.ts';

const missing = sandboxUnavailable();
const FAST = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
const aidOf = (name: string) => `npm-${name}-upper-v1`;
const UPPER = '#!/usr/bin/env node\nconsole.log(require("fs").readFileSync(process.argv[2], "utf8").toUpperCase())\n';
// Slow enough that the test can kill the worker while it runs.
const SLOW = `#!/usr/bin/env node\nsetTimeout(() => console.log(require("fs").readFileSync(process.argv[2], "utf8")), 8000)\n`;

const contractFor = (name: string) =>
  toolContract(
    aidOf(name),
    'npm',
    { install_cmd: `npm install ${name}-upper`, execute_cmd: `npx ${name}-upper {file}` },
    { file: { type: 'string', role: 'input_file', examples: ['a.txt'] } },
  );

interface Worker {
  child: ChildProcess;
  out: string;
  /** Resolves when the pattern appears on stdout (rejects on exit or after the deadline). */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  exited: Promise<number | null>;
}

function startWorker(env: NodeJS.ProcessEnv): Worker {
  const [cmd, args] = nodeArgs('build/cli/verify-worker.ts');
  const child = spawn(cmd, args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const w: Worker = {
    child,
    out: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    waitFor(pattern, ms = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}:\n${w.out}`)), ms);
        const check = () => {
          if (pattern.test(w.out)) done(null);
        };
        const onExit = () => done(new Error(`worker exited before ${pattern}:\n${w.out}`));
        const done = (error: Error | null) => {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          child.stderr?.off('data', check);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve();
        };
        child.stdout?.on('data', check);
        child.stderr?.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
  };
  child.stdout?.on('data', (c: Buffer) => {
    w.out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    w.out += c.toString();
  });
  workers.push(w);
  return w;
}

const workers: Worker[] = [];
const started = (w: Worker) => [...w.out.matchAll(/^started (\S+) \(attempt (\d+)\)$/gm)].map((m) => m[1] as string);

async function ticketDone(get: () => Promise<TicketStatus>, ms = 300_000): Promise<TicketStatus> {
  const deadline = Date.now() + ms;
  for (;;) {
    const t = await get();
    if (t.state === 'done') return t;
    if (Date.now() > deadline) throw new Error(`ticket not done: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let registry: FakeRegistry;

beforeAll(async () => {
  if (missing) return;
  registry = await startFakeNpmRegistry([
    ...FAST.map((name) => ({
      name: `${name}-upper`,
      files: { 'cli.js': UPPER },
      bin: { [`${name}-upper`]: 'cli.js' },
    })),
    { name: 'slow-upper', files: { 'cli.js': SLOW }, bin: { 'slow-upper': 'cli.js' } },
  ]);
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await registry?.close();
});

/** Tarball downloads per package so far. */
const installs = (name: string) => registry.requests.filter((r) => r.startsWith(`/${name}-upper/-/`)).length;

describe.skipIf(missing)(
  `verify:worker on one Redis${missing ? ` (skipped: ${missing})` : ''}`,
  { timeout: 600_000 },
  () => {
    let redis: RedisProcess;
    let site: SiteRoot;
    let api: ApiProcess;
    let env: NodeJS.ProcessEnv;
    const admin = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${api.url}${p}`, {
        method,
        headers: { 'x-admin-secret': SECRET, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    };

    beforeAll(async () => {
      redis = await startRedis();
      site = await prepareSite();
      for (const name of [...FAST, 'slow']) {
        const c = contractFor(name);
        await fsp.writeFile(path.join(site.catalogDir, 'tools', `${c.identity.aid}.json`), JSON.stringify(c, null, 2));
      }
      env = site.env({
        STORAGE_URL: redis.url,
        ADMIN_SECRET: SECRET,
        npm_config_registry: registry.url,
        // A killed worker's job is taken back within seconds here (the lock is 30 s by default).
        VERIFY_LOCK_MS: '4000',
        VERIFY_STALLED_CHECK_MS: '1000',
      });
      api = await startApiProcess(env);
    }, 180_000);
    afterAll(async () => {
      await api?.stop();
      await redis?.stop();
      await site?.cleanup();
    });

    it('two workers share the queue: every job runs once, both take jobs, the server serves the evidence', async () => {
      // A lock well above any pause of a loaded machine: here a job must never be taken back from a live worker.
      const a = startWorker({ ...env, VERIFY_LOCK_MS: '30000' });
      const b = startWorker({ ...env, VERIFY_LOCK_MS: '30000' });
      await Promise.all([a.waitFor(/^ready: Redis \(BullMQ\) queue/m), b.waitFor(/^ready: Redis \(BullMQ\) queue/m)]);
      const aids = FAST.map(aidOf);
      const queued = await admin('POST', '/api/v1/admin/verify', { aids });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({ aids: 6, queued: 6 });
      const t = await ticketDone(async () => (await admin('GET', queued.body.status_url)).body);
      expect(t.counts).toMatchObject({ done: 6, failed: 0, unknown: 0 });
      for (const j of t.jobs) {
        expect(j, j.aid).toMatchObject({ state: 'done', attempts: 1, outcome: { status: 'passed', level: 'runs' } });
      }
      // Exactly once: one "started" line per aid over both workers, one install per package.
      const all = [...started(a), ...started(b)];
      expect(all.sort()).toEqual([...aids].sort());
      expect(started(a).length).toBeGreaterThan(0);
      expect(started(b).length).toBeGreaterThan(0);
      for (const name of FAST) expect(installs(name), name).toBe(1);
      // The evidence went through the catalog store (the Redis overlay) and the server reloaded it.
      for (const aid of aids) {
        const deadline = Date.now() + 30_000;
        let v: { status?: string } | null = null;
        while (Date.now() < deadline) {
          v = (await (await fetch(`${api.url}/api/v1/tools/${aid}`)).json()).trust.verification;
          if (v?.status === 'passed') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(v, aid).toMatchObject({ status: 'passed', level: 'runs', runtime: expect.stringMatching(/^node /) });
      }
      // The files are untouched: under Redis, writes live in the overlay (npm run export writes them out).
      const file = JSON.parse(await fsp.readFile(path.join(site.catalogDir, 'tools', `${aids[0]}.json`), 'utf8'));
      expect(file.record?.verification).toBeUndefined();
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      expect(await a.exited).toBe(0);
      expect(await b.exited).toBe(0);
    });

    it("a SIGKILLed worker's job is taken back by another worker and finishes on the second attempt", async () => {
      // A takes the job under a 4 s lock; B (a long lock of its own, so a loaded machine never takes B's job
      // back from B) checks for stalled jobs every second.
      const a = startWorker(env);
      await a.waitFor(/^ready:/m);
      const queued = await admin('POST', '/api/v1/admin/verify', { aids: [aidOf('slow')] });
      expect(queued.status).toBe(202);
      await a.waitFor(/^started npm-slow-upper-v1 \(attempt 1\)$/m);
      a.child.kill('SIGKILL');
      await a.exited;
      const running = (await admin('GET', queued.body.status_url)).body;
      expect(running.jobs[0]).toMatchObject({ state: 'running', attempts: 1 });
      const b = startWorker({ ...env, VERIFY_LOCK_MS: '30000' });
      await b.waitFor(/^started npm-slow-upper-v1 \(attempt 2\)$/m);
      const t = await ticketDone(async () => (await admin('GET', queued.body.status_url)).body);
      expect(t.jobs[0]).toMatchObject({ state: 'done', attempts: 2, outcome: { status: 'passed' } });
      expect(started(b)).toEqual(['npm-slow-upper-v1']);
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
    });
  },
);

describe.skipIf(missing)(
  `verify:worker with the file queue${missing ? ` (skipped: ${missing})` : ''}`,
  { timeout: 300_000 },
  () => {
    let s: AdminServer;
    beforeAll(async () => {
      s = await startAdminServer({ apis: false, ip: '10.9.0.9', extraTools: [contractFor('alpha')] });
    });
    afterAll(async () => {
      await settled(s);
      await s.cleanup();
    });

    it('runs the queued job, writes the contract file, and the server serves the evidence', async () => {
      const env = {
        CATALOG_DIR: s.catalogDir,
        DATA_DIR: s.dataDir,
        DIST_DIR: s.distDir,
        BASE_URL: 'https://catalog.example',
        npm_config_registry: registry.url,
      };
      const w = startWorker(env);
      await w.waitFor(/^ready: file queue/m);
      // One worker per file queue: a second one is refused.
      const second = startWorker(env);
      expect(await second.exited).toBe(2);
      expect(second.out).toMatch(/another verification worker \(pid \d+\)/);

      const queued = await s.admin('POST', '/api/v1/admin/verify', { aids: [aidOf('alpha')] });
      expect(queued.status).toBe(202);
      const t = await ticketDone(async () => (await s.admin('GET', queued.body.status_url)).body);
      expect(t.jobs[0]).toMatchObject({ state: 'done', outcome: { status: 'passed' } });
      const file = JSON.parse(await fsp.readFile(path.join(s.catalogDir, 'tools', `${aidOf('alpha')}.json`), 'utf8'));
      expect(file.record.verification).toMatchObject({ status: 'passed', level: 'runs' });
      const deadline = Date.now() + 20_000;
      let v: { status?: string } | null = null;
      while (Date.now() < deadline) {
        v = (await s.json(`/api/v1/tools/${aidOf('alpha')}`)).body.trust.verification;
        if (v?.status === 'passed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(v).toMatchObject({ status: 'passed', level: 'runs' });
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
    });
  },
);
