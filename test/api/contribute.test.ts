// Contributions over HTTP: the guide, anonymous proposals and fixes queued for review (202 + ticket,
// rate-limited per client), and the admin round trip: list, accept (applied like an ingest, or one
// command field), reject. Nothing anonymous reaches the catalog before an accept.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleContract } from '../helpers/temp-catalog.ts';

interface Queued {
  id: string;
  kind: string;
  aid: string;
  field: string | null;
  value?: string;
  note?: string;
  contract?: unknown;
}
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

describe('contributions', () => {
  let s: AdminServer;
  let n = 0;
  // A fresh client address per call, so the per-client limit only matters where a test wants it.
  const contribute = (body: unknown, ip = `10.50.${Math.floor(n / 250)}.${n++ % 250}`) =>
    s.post('/api/v1/contribute', body, { 'x-forwarded-for': ip });
  const catalogFile = (aid: string) => path.join(s.catalogDir, 'tools', `${aid}.json`);

  beforeAll(async () => {
    process.env.CONTRIBUTE_RATE_PER_HOUR = '3';
    s = await startAdminServer({ apis: false, ip: '10.9.0.5' });
  });
  afterAll(async () => {
    await settled(s);
    await s.cleanup();
  });

  it('GET /api/v1/contribute explains the pull request, the schema URL and the validator', async () => {
    const { status, body } = await s.json('/api/v1/contribute');
    expect(status).toBe(200);
    expect(body.pull_request).toMatchObject({
      file: 'catalog/tools/<aid>.json',
      schema_url: 'https://catalog.example/schema/tool.schema.json',
      validate: 'npm run validate -- catalog/tools/<aid>.json',
    });
    expect(body.api.endpoint).toBe('POST https://catalog.example/api/v1/contribute');
  });

  it('queues a proposed contract (202 + ticket) without writing it anywhere', async () => {
    const c = sampleContract('npm-proposed-tool-v1', { identity: { task: 'A contributed tool proposal' } });
    const r = await contribute({ contract: c, note: 'from the README' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      status: 'queued',
      ticket: expect.stringMatching(/^[a-z0-9-]+$/),
      kind: 'contract',
      aid: 'npm-proposed-tool-v1',
    });
    await expect(fsp.access(catalogFile('npm-proposed-tool-v1'))).rejects.toThrow();
    expect((await s.json('/api/v1/tools/npm-proposed-tool-v1')).status).toBe(404);
    expect((await contribute({ contract: c, note: 'again' })).status).toBe(409);
  });

  it('validates proposals and fixes with 422 naming the field', async () => {
    const bad = sampleContract('npm-bad-proposal-v1');
    (bad.trust as { reliability_score: number }).reliability_score = 7;
    const r = await contribute({ contract: bad });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'contract', 'trust', 'reliability_score']);
    expect(
      (await contribute({ aid: 'npm-nope-v1', field: 'install_cmd', value: 'npm i nope' })).body.detail[0].loc,
    ).toEqual(['body', 'aid']);
    expect((await contribute({ aid: 'npm-chalk-v1', field: 'task', value: 'x' })).body.detail[0].loc).toEqual([
      'body',
      'field',
    ]);
    expect((await contribute({ contract: sampleContract('npm-x-v1'), extra: 1 })).body.detail[0].loc).toEqual([
      'body',
      'extra',
    ]);
    expect((await contribute(undefined)).status).toBe(422);
  });

  it('limits each client (here 3 per hour) with 429 and Retry-After', async () => {
    const ip = '10.60.0.1';
    const fix = (i: number) => ({
      aid: 'npm-chalk-v1',
      field: 'execute_cmd',
      value: `node -e "require('chalk')" ${i}`,
    });
    for (let i = 0; i < 3; i++) expect((await contribute(fix(i), ip)).status).toBe(202);
    const limited = await contribute(fix(3), ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
    expect((await contribute(fix(4), '10.60.0.2')).status).toBe(202);
  });

  it('round trip: list, accept a contract, accept a fix and a micro_translation, reject one', async () => {
    // A micro_translation from the tax gate joins the same queue.
    const tax = await s.post(
      '/api/v1/tools/pypi-yagmail-v1',
      { execution_feedback: 200, trend_keyword: 'send gmail mail', micro_translation: 'yagmail -t {to} -s {subject}' },
      { 'x-forwarded-for': '10.70.0.1' },
    );
    expect(tax.status).toBe(200);
    const fix = await contribute({ aid: 'npm-axios-v1', field: 'install_cmd', value: 'npm install axios@1' });
    const list = await s.admin('GET', '/admin/contributions');
    expect(list.status).toBe(200);
    const items = list.body.contributions as Queued[];
    const proposal = items.find((i) => i.kind === 'contract') as Queued;
    expect(proposal).toMatchObject({
      aid: 'npm-proposed-tool-v1',
      note: 'from the README',
      contract: { identity: { task: 'A contributed tool proposal' } },
    });
    const micro = items.find((i) => i.kind === 'micro_translation') as Queued;
    expect(micro).toMatchObject({
      aid: 'pypi-yagmail-v1',
      field: 'execute_cmd',
      value: 'yagmail -t {to} -s {subject}',
    });

    const a1 = await s.admin('POST', `/admin/contributions/${proposal.id}/accept`);
    expect(a1.body).toMatchObject({ status: 'ok', kind: 'contract', aid: 'npm-proposed-tool-v1', created: true });
    expect(JSON.parse(await fsp.readFile(catalogFile('npm-proposed-tool-v1'), 'utf8')).identity.task).toBe(
      'A contributed tool proposal',
    );
    expect((await s.json('/api/v1/tools/npm-proposed-tool-v1')).status).toBe(200);

    const a2 = await s.admin('POST', `/admin/contributions/${fix.body.ticket}/accept`);
    expect(a2.body).toMatchObject({ kind: 'fix', aid: 'npm-axios-v1', field: 'install_cmd' });
    const a3 = await s.admin('POST', `/admin/contributions/${micro.id}/accept`);
    expect(a3.body).toMatchObject({ kind: 'micro_translation', field: 'execute_cmd' });
    const paid = async (aid: string) =>
      (
        await s.post(
          `/api/v1/tools/${aid}`,
          { execution_feedback: 200, trend_keyword: 'check the result' },
          { 'x-forwarded-for': '10.70.0.2' },
        )
      ).body.action;
    expect(await paid('npm-axios-v1')).toMatchObject({ install_cmd: 'npm install axios@1' });
    expect(await paid('pypi-yagmail-v1')).toMatchObject({
      execute_cmd: 'yagmail -t {to} -s {subject}',
      install_cmd: 'pip install yagmail',
    });

    const others = (await s.admin('GET', '/admin/contributions')).body.contributions as Queued[];
    expect(others.map((i) => i.id)).not.toContain(proposal.id);
    const victim = others[0] as Queued;
    const before = await fsp.readFile(catalogFile('npm-chalk-v1'), 'utf8');
    expect((await s.admin('POST', `/admin/contributions/${victim.id}/reject`)).body).toEqual({
      status: 'ok',
      id: victim.id,
      rejected: true,
    });
    expect(await fsp.readFile(catalogFile('npm-chalk-v1'), 'utf8')).toBe(before);
    expect((await s.admin('POST', `/admin/contributions/${victim.id}/accept`)).status).toBe(404);
    expect((await s.admin('POST', '/admin/contributions/../../etc/accept')).status).toBe(404);
  });

  it('asks which field a micro_translation names when the contract had no micro_task', async () => {
    const q = await s.running.ctx.reviewQueue.submit({
      aid: 'npm-chalk-v1',
      field: null,
      value: 'chalk-cli {text}',
      agent: 'unknown',
    });
    expect(q).not.toBeNull();
    const id = q?.id as string;
    const r = await s.admin('POST', `/admin/contributions/${id}/accept`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'field']);
    const ok = await s.admin('POST', `/admin/contributions/${id}/accept`, { field: 'execute_cmd' });
    expect(ok.body).toMatchObject({ status: 'ok', aid: 'npm-chalk-v1', field: 'execute_cmd' });
  });
});
