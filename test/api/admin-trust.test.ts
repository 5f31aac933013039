// npm run trust: the formula (Wilson lower bound blended with the prior, evidence per distinct client),
// the aggregator's per-client tallies, and the CLI end to end — over HTTP against a running server and
// with --local on a stopped one — leaving telemetry counters and verified status alone.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Aggregator } from '../../api/state/telemetry/aggregator.ts';
import type { ReportEvent } from '../../api/state/telemetry/types.ts';
import { blendedScore, planScores, wilsonLowerBound } from '../../build/model/trust-score.ts';
import { runTs } from '../helpers/run-ts.ts';
import { BASE_URL } from '../helpers/server.ts';
import { type AdminServer, SECRET, settled, startAdminServer } from './admin-helpers.ts';

describe('trust formula', () => {
  it('Wilson lower bound', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(10, 10)).toBeCloseTo(0.7225, 3);
    expect(wilsonLowerBound(50, 100)).toBeCloseTo(0.4038, 3);
    expect(wilsonLowerBound(0, 5)).toBe(0);
  });

  it('blends with the prior by the number of distinct clients', () => {
    expect(blendedScore(0.9, { clients: 0, success_weight: 0 })).toBe(0.9);
    expect(blendedScore(0.9, { clients: 1, success_weight: 0 })).toBe(0.818);
    expect(blendedScore(0.9, { clients: 5, success_weight: 0 })).toBe(0.6);
    expect(blendedScore(0.5, { clients: 200, success_weight: 200 })).toBeGreaterThan(0.95);
  });

  it('counts one flooding client as one client', () => {
    const agg = new Aggregator();
    const at = new Date(0).toISOString();
    const r = (client: string, execution_feedback: number): ReportEvent => ({
      kind: 'report',
      aid: 'npm-a-v1',
      agent: 'unknown',
      at,
      execution_feedback,
      trend_keyword: 'use it well',
      client,
    });
    for (let i = 0; i < 1000; i++) agg.apply(r('flood', 500));
    for (let i = 0; i < 5; i++) agg.apply(r(`c${i}`, 200));
    agg.apply(r('mixed', 200));
    agg.apply(r('mixed', 404));
    agg.apply(r('neutral', 302));
    expect(agg.evidence()).toEqual([
      { aid: 'npm-a-v1', clients: 7, success_weight: 5.5, successes: 6, failures: 1001 },
    ]);
    const restored = new Aggregator();
    restored.restore(JSON.parse(JSON.stringify(agg.snapshot())));
    expect(restored.evidence()).toEqual(agg.evidence());
    // 1,000 failures from one client move the score as much as one failure from one client.
    const one = new Aggregator();
    one.apply(r('x', 500));
    const [flood] = (() => {
      const a = new Aggregator();
      for (let i = 0; i < 1000; i++) a.apply(r('flood', 500));
      return a.evidence();
    })();
    expect(blendedScore(0.9, flood!)).toBe(blendedScore(0.9, one.evidence()[0]!));
  });

  it('keeps the original prior across runs, and takes a hand-set score as the new prior', () => {
    const ev = [{ aid: 'a-v1', clients: 4, success_weight: 4 }];
    const first = planScores([{ aid: 'a-v1', reliability_score: 0.6 }], ev, {});
    const s1 = first.scores[0]!.reliability_score;
    const second = planScores([{ aid: 'a-v1', reliability_score: s1 }], ev, first.priors);
    expect(second.scores).toEqual([]);
    expect(second.priors['a-v1']).toEqual({ prior: 0.6, score: s1 });
    const byHand = planScores([{ aid: 'a-v1', reliability_score: 0.2 }], ev, first.priors);
    expect(byHand.priors['a-v1']?.prior).toBe(0.2);
  });
});

describe('npm run trust', () => {
  let s: AdminServer;
  const report = (aid: string, ip: string, execution_feedback: number) =>
    s.post(`/api/v1/tools/${aid}`, { execution_feedback, trend_keyword: 'real use case' }, { 'x-forwarded-for': ip });
  const file = async (aid: string) =>
    JSON.parse(await fsp.readFile(path.join(s.catalogDir, 'tools', `${aid}.json`), 'utf8'));

  beforeAll(async () => {
    s = await startAdminServer({ apis: false, ip: '10.9.0.6' });
    // axios (0.95): one client reports 150 failures. request (unverified): 8 clients succeed.
    for (let i = 0; i < 150; i += 25)
      await Promise.all(Array.from({ length: 25 }, () => report('npm-axios-v1', '10.80.0.1', 500)));
    for (let i = 0; i < 8; i++) await report('npm-request-v1', `10.81.0.${i}`, 200);
  });
  afterAll(async () => {
    await settled(s);
    await s.cleanup();
  });

  it('stores only a salted hash of the client, never the address', async () => {
    const log = await fsp.readFile(path.join(s.dataDir, 'telemetry', 'events-0.jsonl'), 'utf8');
    expect(log).not.toMatch(/10\.8[01]\./);
    const client = JSON.parse(log.split('\n')[0] as string).client as string;
    expect(client).toMatch(/^[0-9a-f]{16}$/);
    // Salted: not the plain hash of the address either.
    expect(client).not.toBe(createHash('sha256').update('10.80.0.1').digest('hex').slice(0, 16));
  });

  it('scores through a running server and is idempotent', async () => {
    const env = { ADMIN_SECRET: SECRET, DATA_DIR: s.dataDir, CATALOG_DIR: s.catalogDir };
    const before = { axios: await file('npm-axios-v1'), request: await file('npm-request-v1') };
    const counters = await s.running.ctx.telemetry.counters('npm-axios-v1');
    const r = await runTs('build/cli/trust.ts', ['--url', s.url], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/2 score\(s\) change/);
    const axios = await file('npm-axios-v1');
    expect(axios.trust.reliability_score).toBe(
      blendedScore(before.axios.trust.reliability_score, { clients: 1, success_weight: 0 }),
    );
    expect(axios.trust.reliability_score).toBeGreaterThan(0.85);
    const request = await file('npm-request-v1');
    expect(request.trust.reliability_score).toBe(
      blendedScore(before.request.trust.reliability_score, { clients: 8, success_weight: 8 }),
    );
    expect(request.record.verified).toBe(false);
    expect(request.record.reliability_calculated_at).not.toBe(before.request.record.reliability_calculated_at);
    expect({ ...axios, trust: before.axios.trust, record: before.axios.record }).toEqual(before.axios);
    expect(await s.running.ctx.telemetry.counters('npm-axios-v1')).toEqual(counters);
    expect((await s.json('/api/v1/tools/npm-axios-v1')).body.trust.reliability_score).toBe(
      axios.trust.reliability_score,
    );
    const again = await runTs('build/cli/trust.ts', ['--url', s.url], { env });
    expect(again.stdout).toMatch(/0 score\(s\) change/);
    expect(
      await runTs('build/cli/trust.ts', ['--url', s.url], { env: { ...env, ADMIN_SECRET: 'wrong' } }),
    ).toMatchObject({ code: 1 });
  });

  it('--local scores a stopped server through the same write path', async () => {
    for (let i = 0; i < 6; i++) await report('npm-chalk-v1', `10.82.0.${i}`, 200);
    await settled(s);
    await s.close();
    const before = (await file('npm-chalk-v1')).trust.reliability_score;
    const r = await runTs('build/cli/trust.ts', ['--local'], {
      env: { DATA_DIR: s.dataDir, CATALOG_DIR: s.catalogDir, DIST_DIR: s.distDir, BASE_URL },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 score\(s\) change/);
    expect(r.stdout).toMatch(/rebuilt dist\/ \(incremental\)/);
    expect((await file('npm-chalk-v1')).trust.reliability_score).toBe(
      blendedScore(before, { clients: 6, success_weight: 6 }),
    );
    const page = JSON.parse(await fsp.readFile(path.join(s.distDir, 'static/v1/tools/npm-chalk-v1.json'), 'utf8'));
    expect(page.trust.reliability_score).toBe(blendedScore(before, { clients: 6, success_weight: 6 }));
  });
});
