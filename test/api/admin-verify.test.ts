// POST /api/v1/admin/verify and GET …/verify/{ticket} on a real server with the file queue under DATA_DIR:
// what a body selects, what is refused (and then nothing is queued), the ticket; contracts that arrive by
// ingest, translate (an admin write) and an accepted contribution are queued with their reason; and a
// contract file another process writes (a verification worker storing evidence) is picked up by the
// server's catalog watcher and served at once. The worker itself: test/build/verify/verify-worker.test.ts.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileVerifyQueue } from '../../build/verify/queue/file.ts';
import { createRedisVerifyQueue } from '../../build/verify/queue/redis.ts';
import type { VerifyJob } from '../../build/verify/queue/types.ts';
import { freePort } from '../helpers/redis.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

const FIXTURE_NPM = ['npm-axios-v1', 'npm-chalk-v1', 'npm-nodemailer-v1', 'npm-request-v1'];

describe('verification on demand', () => {
  let s: AdminServer;
  let peer: TestServer;
  const pending = () => createFileVerifyQueue(s.dataDir).pending();
  /** The reason the aid waits with, or undefined when it is not queued. */
  const waitingFor = async (aid: string) => (await pending()).find((j: VerifyJob) => j.aid === aid)?.reason;

  beforeAll(async () => {
    peer = await startTestServer({ apis: false });
    Object.assign(process.env, { PEER_CATALOG_HOSTS: new URL(peer.url).host, ALLOW_PRIVATE_UPSTREAMS: '1' });
    s = await startAdminServer({ apis: false, ip: '10.9.0.7' });
  });
  afterAll(async () => {
    await settled(s);
    await Promise.all([s.cleanup(), peer.cleanup()]);
  });

  it('needs the admin secret', async () => {
    const r = await s.post('/api/v1/admin/verify', { aids: ['npm-axios-v1'] }, { 'x-forwarded-for': '10.9.0.8' });
    expect(r.status).toBe(401);
    const g = await s.json('/api/v1/admin/verify/abcdefgh-00000000', { headers: { 'x-forwarded-for': '10.9.0.8' } });
    expect(g.status).toBe(401);
    expect(await pending()).toEqual([]);
  });

  it('refuses bad selections with 422 naming the field, and queues nothing', async () => {
    const cases: [unknown, (string | number)[], RegExp][] = [
      [{}, ['body'], /Say what to verify/],
      [{ aids: ['npm-axios-v1', 'npm-nope-v1'] }, ['body', 'aids', 1], /npm-nope-v1' not found/],
      [{ aids: [] }, ['body', 'aids'], /at least 1/],
      [{ aids: ['npm-axios-v1'], all: true }, ['body', 'aids'], /not both/],
      [{ all: false }, ['body', 'all'], /./],
      [{ platform: 'cargo' }, ['body', 'platform'], /./],
      [{ aids: ['NOT AN AID'] }, ['body', 'aids', 0], /./],
      [{ aids: ['npm-axios-v1'], extra: 1 }, ['body', 'extra'], /Extra inputs/],
      [[1, 2], ['body'], /./],
    ];
    for (const [body, loc, msg] of cases) {
      const r = await s.admin('POST', '/api/v1/admin/verify', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc, JSON.stringify(body)).toEqual(loc);
      expect(r.body.detail[0].msg).toMatch(msg);
    }
    expect((await s.admin('POST', '/api/v1/admin/verify')).status).toBe(422);
    const notJson = await s.fetch('/api/v1/admin/verify', {
      method: 'POST',
      headers: {
        'x-admin-secret': 'test-admin-secret-7f3a9c',
        'x-forwarded-for': '10.9.0.7',
        'content-type': 'text/plain',
      },
      body: 'aids=npm-axios-v1',
    });
    expect(notJson.status).toBe(415);
    expect(await pending()).toEqual([]);
  });

  it('queues aids, a platform or everything, and the ticket follows each aid', async () => {
    const one = await s.admin('POST', '/api/v1/admin/verify', { aids: ['npm-axios-v1', 'npm-axios-v1'] });
    expect(one.status).toBe(202);
    expect(one.body).toMatchObject({ status: 'queued', aids: 1, queued: 1 });
    expect(one.body.status_url).toBe(`/api/v1/admin/verify/${one.body.ticket}`);

    const npm = await s.admin('POST', '/admin/verify', { platform: 'npm' });
    expect(npm.status).toBe(202);
    // axios already waits: its job is shared, not queued twice.
    expect(npm.body).toMatchObject({ aids: FIXTURE_NPM.length, queued: FIXTURE_NPM.length - 1 });
    const all = await s.admin('POST', '/api/v1/admin/verify', { all: true });
    expect(all.body.aids).toBe(8);
    expect(all.body.queued).toBe(8 - FIXTURE_NPM.length);

    const t = await s.admin('GET', npm.body.status_url);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ ticket: npm.body.ticket, reason: 'admin', state: 'queued' });
    expect(t.body.counts).toMatchObject({ queued: 4, running: 0, done: 0, failed: 0 });
    expect(t.body.jobs.map((j: { aid: string }) => j.aid).sort()).toEqual(FIXTURE_NPM);
    expect((await s.admin('GET', `/admin/verify/${one.body.ticket}`)).body.jobs).toEqual([
      { aid: 'npm-axios-v1', state: 'queued', attempts: 0 },
    ]);
    expect((await pending()).map((j) => j.aid).sort()).toHaveLength(8);

    const missing = await s.admin('GET', '/api/v1/admin/verify/zzzzzzzz-00000000');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/not found/);
    expect((await s.admin('GET', '/api/v1/admin/verify/..%2F..%2Fetc')).status).toBe(404);
    expect((await s.admin('GET', '/api/v1/admin/verify', undefined)).status).toBe(405);
  });

  it('queues contracts that arrive by ingest, translate and an accepted contribution', async () => {
    const ingested = sampleContract('npm-ingested-verify-v1');
    expect((await s.admin('POST', '/api/v1/ingest', ingested)).status).toBe(200);
    expect(await waitingFor('npm-ingested-verify-v1')).toBe('ingest');

    const translated = await s.admin('POST', '/api/v1/translate', { url: `${peer.url}/api/v1/tools/npm-chalk-v1` });
    expect(translated.status, JSON.stringify(translated.body)).toBe(200);
    expect(await waitingFor(translated.body.aid)).toBe('admin');

    const proposal = sampleContract('npm-contributed-verify-v1');
    const c = await s.post('/api/v1/contribute', { contract: proposal }, { 'x-forwarded-for': '10.9.1.1' });
    expect(c.status).toBe(202);
    // Nothing anonymous is queued before an admin accepts it.
    expect(await waitingFor('npm-contributed-verify-v1')).toBeUndefined();
    expect((await s.admin('POST', `/admin/contributions/${c.body.ticket}/accept`)).status).toBe(200);
    expect(await waitingFor('npm-contributed-verify-v1')).toBe('accept');

    // A refused ingest queues nothing.
    const before = (await pending()).length;
    const bad = await s.admin('POST', '/api/v1/ingest', { ...sampleContract('npm-bad-verify-v1'), logic: 5 });
    expect(bad.status).toBe(422);
    expect(await pending()).toHaveLength(before);
  });

  it('serves evidence another process wrote into the catalog file (the worker) and rebuilds', async () => {
    const aid = 'npm-chalk-v1';
    const file = path.join(s.catalogDir, 'tools', `${aid}.json`);
    const contract = JSON.parse(await fsp.readFile(file, 'utf8'));
    const verification = {
      status: 'passed',
      level: 'runs',
      reason: 'the command exited 0 and printed output',
      checked_at: '2026-11-25T03:00:00.000Z',
      runtime: 'node 22.23',
      install_ms: 1200,
      execute_ms: 300,
    };
    const builds = s.running.ctx.rebuild.status().builds;
    // As the worker's catalog store writes: a temp file renamed over the contract.
    await fsp.writeFile(`${file}.tmp-1`, JSON.stringify({ ...contract, record: { ...contract.record, verification } }));
    await fsp.rename(`${file}.tmp-1`, file);
    const deadline = Date.now() + 20_000;
    let served: { status: string } | null = null;
    while (Date.now() < deadline) {
      served = (await s.json(`/api/v1/tools/${aid}`)).body.trust.verification;
      if (served?.status === 'passed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(served).toMatchObject({ status: 'passed', level: 'runs', checked_at: '2026-11-25T03:00:00.000Z' });
    await settled(s);
    expect(s.running.ctx.rebuild.status().builds).toBeGreaterThan(builds);
    // The static site followed: the llms.txt category file that lists the tool, rebuilt by that build, shows
    // the evidence.
    const dir = path.join(s.distDir, 'llms');
    const lines: string[] = [];
    for (const f of await fsp.readdir(dir)) lines.push(...(await fsp.readFile(path.join(dir, f), 'utf8')).split('\n'));
    expect(lines.find((l) => l.includes(aid))).toMatch(/verification passed \(runs\)/);
  });

  it('while the queue is unreachable: POST answers 503 with Retry-After, an ingest still stores its contract', async () => {
    const port = await freePort();
    const working = s.running.ctx.verifyQueue;
    s.running.ctx.verifyQueue = createRedisVerifyQueue(`redis://127.0.0.1:${port}/0`, { prefix: 'down' });
    try {
      const r = await s.admin('POST', '/api/v1/admin/verify', { aids: ['npm-axios-v1'] });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.body.detail).toMatch(/verification queue cannot be reached/);
      const c = sampleContract('npm-ingested-during-outage-v1');
      expect((await s.admin('POST', '/api/v1/ingest', c)).status).toBe(200);
      expect((await s.json('/api/v1/tools/npm-ingested-during-outage-v1')).status).toBe(200);
    } finally {
      await s.running.ctx.verifyQueue.close();
      s.running.ctx.verifyQueue = working;
    }
  });
});
