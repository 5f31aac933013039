// POST /api/v1/ingest and POST /admin/update-trust over HTTP: what is written to catalog/tools, what the
// API shows at once, what is kept (telemetry counters, verified status) and what is refused (422, nothing written).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';

type Item = { identity: { aid: string } };
type Loc = { loc: (string | number)[] };
// Deliberately broken contracts: any shape goes.
type Loose = Record<string, Record<string, unknown>> & { extra?: boolean; pad?: string };
import { sampleContract } from '../helpers/temp-catalog.ts';
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

const fileOf = (s: AdminServer, aid: string) => path.join(s.catalogDir, 'tools', `${aid}.json`);
const readFile = async (s: AdminServer, aid: string) =>
  JSON.parse(await fsp.readFile(fileOf(s, aid), 'utf8')) as ToolContract;
const report = (s: AdminServer, aid: string, execution_feedback = 200) =>
  s.post(
    `/api/v1/tools/${aid}`,
    { execution_feedback, trend_keyword: 'send some mail' },
    { 'x-forwarded-for': '10.20.0.1' },
  );

describe('POST /api/v1/ingest', () => {
  let s: AdminServer;
  beforeAll(async () => {
    s = await startAdminServer({ apis: false });
  });
  afterAll(async () => {
    await settled(s);
    await s.cleanup();
  });

  it('creates a contract: file written, visible in the API at once, counted in agent.json', async () => {
    const before = (await s.json('/agent.json')).body.tools_count;
    const c = sampleContract('npm-ingested-thing-v1', { identity: { task: 'Frobnicate widgets for ingest tests' } });
    const r = await s.admin('POST', '/api/v1/ingest', c);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', aid: 'npm-ingested-thing-v1', created: true });
    const file = await readFile(s, 'npm-ingested-thing-v1');
    expect(file).toEqual(c);
    expect((await s.json('/api/v1/tools/npm-ingested-thing-v1')).body.identity.task).toBe(
      'Frobnicate widgets for ingest tests',
    );
    const found = await s.json('/api/v1/tools?q=frobnicate%20widgets');
    expect(found.body.results.map((x: Item) => x.identity.aid)).toContain('npm-ingested-thing-v1');
    expect((await s.json('/agent.json')).body.tools_count).toBe(before + 1);
  });

  it('replaces the stored contract whole (absent blocks removed) and keeps telemetry counters', async () => {
    expect((await report(s, 'npm-chalk-v1')).status).toBe(200);
    expect((await report(s, 'npm-chalk-v1', 500)).status).toBe(200);
    const old = await readFile(s, 'npm-chalk-v1');
    expect(old.record).toBeDefined();
    const { record: _drop, ...replacement } = sampleContract('npm-chalk-v1', {
      identity: { name: 'chalk', task: 'Replaced task text' },
      trust: { reliability_score: 0.42 },
    });
    const r = await s.admin('POST', '/api/v1/ingest', { contract: replacement });
    expect(r.body).toEqual({ status: 'ok', aid: 'npm-chalk-v1', created: false });
    const file = await readFile(s, 'npm-chalk-v1');
    expect(file.record).toBeUndefined();
    expect(file.identity.task).toBe('Replaced task text');
    expect(file.logic).toEqual(replacement.logic);
    const served = (await s.json('/api/v1/tools/npm-chalk-v1')).body;
    expect(served.identity.task).toBe('Replaced task text');
    expect(served.trust.reliability_score).toBe(0.42);
    expect(served.trust.telemetry).toMatchObject({ requests: 2, success_rate: 0.5 });
  });

  it('refuses an invalid contract with 422 naming each bad field, and writes nothing', async () => {
    const bad = sampleContract('npm-never-written-v1') as unknown as Loose;
    (bad.identity as Record<string, unknown>).license = 'Not A Licence';
    (bad.action as Record<string, unknown>).install_cmd = 42;
    (bad.trust as Record<string, unknown>).reliability_score = 1.5;
    bad.extra = true;
    const r = await s.admin('POST', '/api/v1/ingest', bad);
    expect(r.status).toBe(422);
    const locs = r.body.detail.map((d: Loc) => d.loc.join('/'));
    expect(locs).toEqual(
      expect.arrayContaining([
        'body/identity/license',
        'body/action/install_cmd',
        'body/trust/reliability_score',
        'body/extra',
      ]),
    );
    for (const d of r.body.detail) expect(d).toMatchObject({ msg: expect.any(String), type: expect.any(String) });
    await expect(fsp.access(fileOf(s, 'npm-never-written-v1'))).rejects.toThrow();
    expect((await s.json('/api/v1/tools/npm-never-written-v1')).status).toBe(404);
  });

  it('names array items by index and refuses a missing body, a non-object and an oversized body', async () => {
    const bad = sampleContract('npm-tags-bad-v1', { identity: { tags: ['ok', ''] } });
    expect((await s.admin('POST', '/api/v1/ingest', bad)).body.detail[0].loc).toEqual(['body', 'identity', 'tags', 1]);
    expect((await s.admin('POST', '/api/v1/ingest')).body).toEqual({
      detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }],
    });
    expect((await s.admin('POST', '/api/v1/ingest', [1, 2])).status).toBe(422);
    const huge = sampleContract('npm-huge-v1', { identity: { task: 'x'.repeat(400) } }) as unknown as Loose;
    huge.pad = 'y'.repeat(1024 * 1024);
    expect((await s.admin('POST', '/api/v1/ingest', huge)).status).toBe(413);
  });
});

describe('POST /admin/update-trust', () => {
  let s: AdminServer;
  beforeAll(async () => {
    s = await startAdminServer({ apis: false, ip: '10.9.0.2' });
  });
  afterAll(async () => {
    await settled(s);
    await s.cleanup();
  });

  it('changes only reliability_score and reliability_calculated_at; counters and verified status stay', async () => {
    await report(s, 'npm-axios-v1');
    const before = { axios: await readFile(s, 'npm-axios-v1'), request: await readFile(s, 'npm-request-v1') };
    const countersBefore = await s.running.ctx.telemetry.counters('npm-axios-v1');
    const r = await s.admin('POST', '/admin/update-trust', {
      scores: [
        { aid: 'npm-axios-v1', reliability_score: 0.81 },
        { aid: 'npm-request-v1', reliability_score: 0 },
        { aid: 'npm-nope-v1', reliability_score: 0.5 },
      ],
      calculated_at: '2026-01-02T03:04:05Z',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      updated: 2,
      unknown: ['npm-nope-v1'],
      calculated_at: '2026-01-02T03:04:05.000Z',
    });
    const axios = await readFile(s, 'npm-axios-v1');
    expect(axios).toEqual({
      ...before.axios,
      trust: { ...before.axios.trust, reliability_score: 0.81 },
      record: { ...before.axios.record, reliability_calculated_at: '2026-01-02T03:04:05.000Z' },
    });
    const request = await readFile(s, 'npm-request-v1');
    expect(request.record).toEqual({ verified: false, reliability_calculated_at: '2026-01-02T03:04:05.000Z' });
    expect(request.trust).toEqual({ ...before.request.trust, reliability_score: 0 });
    expect(await s.running.ctx.telemetry.counters('npm-axios-v1')).toEqual(countersBefore);
    expect((await s.json('/api/v1/tools/npm-axios-v1')).body.trust).toMatchObject({
      reliability_score: 0.81,
      telemetry: { requests: 1 },
    });
    // Unverified tools stay out of listings after a score change.
    expect((await s.json('/api/v1/tools?q=request')).body.results.map((x: Item) => x.identity.aid)).not.toContain(
      'npm-request-v1',
    );
  });

  it('defaults calculated_at to now', async () => {
    const t = Date.now();
    const r = await s.admin('POST', '/admin/update-trust', {
      scores: [{ aid: 'npm-chalk-v1', reliability_score: 0.7 }],
    });
    expect(Date.parse(r.body.calculated_at)).toBeGreaterThanOrEqual(t - 1000);
    expect((await readFile(s, 'npm-chalk-v1')).record?.reliability_calculated_at).toBe(r.body.calculated_at);
  });

  it('validates the whole batch before writing anything', async () => {
    const before = await fsp.readFile(fileOf(s, 'npm-axios-v1'), 'utf8');
    const bad = await s.admin('POST', '/admin/update-trust', {
      scores: [
        { aid: 'npm-axios-v1', reliability_score: 0.1 },
        { aid: 'pypi-requests-v1', reliability_score: 1.5 },
        { aid: 'x' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: Loc) => d.loc.join('/'))).toEqual(
      expect.arrayContaining(['body/scores/1/reliability_score', 'body/scores/2/reliability_score']),
    );
    const dup = await s.admin('POST', '/admin/update-trust', {
      scores: [
        { aid: 'npm-axios-v1', reliability_score: 0.1 },
        { aid: 'npm-axios-v1', reliability_score: 0.2 },
      ],
    });
    expect(dup.body.detail).toEqual([
      { loc: ['body', 'scores', 1, 'aid'], msg: 'Duplicate aid in the batch', type: 'value_error' },
    ]);
    const tooMany = await s.admin('POST', '/admin/update-trust', {
      scores: Array.from({ length: 10_001 }, (_, i) => ({ aid: `npm-x${i}-v1`, reliability_score: 0.5 })),
    });
    expect(tooMany.status).toBe(422);
    expect((await s.admin('POST', '/admin/update-trust', { scores: [], calculated_at: 'yesterday' })).status).toBe(422);
    expect(await fsp.readFile(fileOf(s, 'npm-axios-v1'), 'utf8')).toBe(before);
  });

  it('takes a batch of 10,000 entries', async () => {
    const scores = Array.from({ length: 10_000 }, (_, i) => ({
      aid: i === 0 ? 'pypi-requests-v1' : `npm-unknown-${i}-v1`,
      reliability_score: 0.66,
    }));
    const r = await s.admin('POST', '/admin/update-trust', { scores });
    expect(r.body).toMatchObject({ updated: 1 });
    expect(r.body.unknown).toHaveLength(9_999);
    expect((await readFile(s, 'pypi-requests-v1')).trust.reliability_score).toBe(0.66);
  });
});
