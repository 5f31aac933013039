// POST /api/v1/tools/{aid}: 402 without a payload, 200 with the full contract for a valid TaxPayload
// (top level or wrapped), 422 naming the field, 413/415, malformed JSON, rate limits, the review queue.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { servedAction } from '../../build/model/views.ts';
import { fixtureTools, rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

const TOOL = '/api/v1/tools/npm-axios-v1';
const valid = { execution_feedback: 200, trend_keyword: 'fetch json api' };

describe('POST /api/v1/tools/{aid}', () => {
  let s: TestServer;
  let axios: ToolContract;
  const counters = (aid: string) => s.running.ctx.telemetry.counters(aid);

  beforeAll(async () => {
    axios = (await fixtureTools()).get('npm-axios-v1') as ToolContract;
    s = await startTestServer();
  });
  afterAll(() => s.cleanup());

  describe('without a payload', () => {
    it.each([
      ['no body', undefined],
      ['a JSON null body', 'null'],
      ['{"tax_payload": null}', { tax_payload: null }],
    ])('%s answers 402 with the partial contract and tax_required', async (_label, body) => {
      const before = (await counters('npm-axios-v1')).requests;
      const { status, body: res } = await s.post(TOOL, body);
      expect(status).toBe(402);
      expect(res.action).toBeNull();
      expect(res.identity.aid).toBe('npm-axios-v1');
      expect(res.tax_required).toMatchObject({
        endpoint: 'POST /api/v1/tools/npm-axios-v1',
        fields: { execution_feedback: expect.any(String), trend_keyword: expect.any(String) },
        example: { execution_feedback: 200, trend_keyword: expect.stringMatching(/\S \S/) },
      });
      expect(res.tax_received).toBeUndefined();
      expect((await counters('npm-axios-v1')).requests).toBe(before);
    });
  });

  describe('with a valid TaxPayload', () => {
    it('at the top level: 200, the full contract with action, tax_received, counted', async () => {
      const before = await counters('npm-axios-v1');
      const { status, body } = await s.post(TOOL, { ...valid, validation_vote: 'yes' });
      expect(status).toBe(200);
      expect(body.action).toEqual(servedAction(axios.action));
      expect(body.tax_received).toBe(true);
      expect(body.tax_required).toBeUndefined();
      expect(body.via).toBe('catalog.example');
      expect(body.registry.canonical).toBe('https://catalog.example/api/v1/tools/npm-axios-v1');
      expect(body.trust.telemetry.requests).toBe(before.requests + 1);
      expect(body.trust.telemetry.votes.yes).toBe(before.votes.yes + 1);
    });

    it('wrapped as {"tax_payload": {...}}: the same 200', async () => {
      const { status, body } = await s.post(TOOL, {
        tax_payload: { ...valid, execution_feedback: 500, validation_vote: 'no' },
      });
      expect(status).toBe(200);
      expect(body.action).toEqual(servedAction(axios.action));
      expect(body.tax_received).toBe(true);
    });

    it('treats null optional fields as absent (clients of the original service send them)', async () => {
      const queued = (await s.running.ctx.reviewQueue.list()).length;
      const { status } = await s.post(TOOL, { ...valid, validation_vote: null, micro_translation: null });
      expect(status).toBe(200);
      expect((await s.running.ctx.reviewQueue.list()).length).toBe(queued);
    });

    it('stores the trend keyword cleaned: control characters removed, whitespace collapsed', async () => {
      await s.post('/api/v1/tools/npm-chalk-v1', {
        execution_feedback: 200,
        trend_keyword: '  colour\u0000\u001b  log\tlines \u202e ',
      });
      expect((await counters('npm-chalk-v1')).trend_keywords).toEqual([{ keyword: 'colour log lines', count: 1 }]);
    });

    it('queues micro_translation for review and never writes it into the catalog', async () => {
      const file = path.join(s.catalogDir, 'tools', 'pypi-yagmail-v1.json');
      const before = await fsp.readFile(file, 'utf8');
      const suggestion = "python -c \"import yagmail; yagmail.SMTP('{user}').send('{to}')\"\u0007";
      for (let i = 0; i < 2; i++) {
        const res = await s.post('/api/v1/tools/pypi-yagmail-v1', { ...valid, micro_translation: suggestion });
        expect(res.status).toBe(200);
        expect(res.body.action.execute_cmd).toBeNull();
      }
      const queued = (await s.running.ctx.reviewQueue.list()).filter((q) => q.aid === 'pypi-yagmail-v1');
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({
        field: 'execute_cmd',
        value: suggestion.replace('\u0007', ''),
        status: 'pending',
        agent: 'http_client',
      });
      expect(await fsp.readFile(file, 'utf8')).toBe(before);
      expect((await s.json('/api/v1/tools/pypi-yagmail-v1')).body.micro_task.field).toBe('execute_cmd');
    });
  });

  describe('with an invalid payload', () => {
    const cases: [string, unknown, (string | number)[], string][] = [
      ['an empty object', {}, ['body', 'execution_feedback'], 'missing'],
      ['no trend_keyword', { execution_feedback: 200 }, ['body', 'trend_keyword'], 'missing'],
      [
        'execution_feedback 99',
        { ...valid, execution_feedback: 99 },
        ['body', 'execution_feedback'],
        'greater_than_equal',
      ],
      [
        'execution_feedback 600',
        { ...valid, execution_feedback: 600 },
        ['body', 'execution_feedback'],
        'less_than_equal',
      ],
      ['execution_feedback "200"', { ...valid, execution_feedback: '200' }, ['body', 'execution_feedback'], 'int_type'],
      ['execution_feedback 200.5', { ...valid, execution_feedback: 200.5 }, ['body', 'execution_feedback'], 'int_type'],
      ['a one-word trend_keyword', { ...valid, trend_keyword: 'email' }, ['body', 'trend_keyword'], 'value_error'],
      [
        'a trend_keyword of control characters',
        { ...valid, trend_keyword: 'a\u0000 \u0001' },
        ['body', 'trend_keyword'],
        'value_error',
      ],
      [
        'a trend_keyword over 100 characters',
        { ...valid, trend_keyword: `two ${'w'.repeat(97)}` },
        ['body', 'trend_keyword'],
        'string_too_long',
      ],
      ['a numeric trend_keyword', { ...valid, trend_keyword: 42 }, ['body', 'trend_keyword'], 'string_type'],
      ['validation_vote "A"', { ...valid, validation_vote: 'A' }, ['body', 'validation_vote'], 'enum'],
      [
        'micro_translation over 200 characters',
        { ...valid, micro_translation: 'x'.repeat(201) },
        ['body', 'micro_translation'],
        'string_too_long',
      ],
      ['an unknown field', { ...valid, referral_included: true }, ['body', 'referral_included'], 'extra_forbidden'],
      [
        'a wrapped payload with a bad field',
        { tax_payload: { ...valid, trend_keyword: 'x' } },
        ['body', 'tax_payload', 'trend_keyword'],
        'value_error',
      ],
      [
        'a wrapped payload with extra top-level keys',
        { tax_payload: valid, execution_feedback: 200 },
        ['body', 'execution_feedback'],
        'extra_forbidden',
      ],
      ['a wrapped non-object', { tax_payload: [valid] }, ['body', 'tax_payload'], 'model_attributes_type'],
      ['an array body', [valid], ['body'], 'model_attributes_type'],
      ['a string body', '"pay"', ['body'], 'model_attributes_type'],
    ];
    it.each(cases)('%s is a 422 naming the field; nothing is recorded', async (_label, body, loc, type) => {
      const before = await counters('npm-axios-v1');
      const queued = (await s.running.ctx.reviewQueue.list()).length;
      const res = await s.post(TOOL, body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toContainEqual({ loc, msg: expect.any(String), type });
      expect(await counters('npm-axios-v1')).toEqual(before);
      expect((await s.running.ctx.reviewQueue.list()).length).toBe(queued);
    });

    it('a trend_keyword of exactly 100 characters is fine', async () => {
      expect((await s.post(TOOL, { ...valid, trend_keyword: `two ${'w'.repeat(96)}` })).status).toBe(200);
    });
  });

  describe('malformed requests', () => {
    it('malformed JSON is a 422 pointing at the body, without internals', async () => {
      const res = await s.post(TOOL, '{"execution_feedback": 200,');
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|node_modules/);
    });

    it('a non-JSON content type is a 415', async () => {
      const res = await s.post(TOOL, 'execution_feedback=200', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(415);
      expect(res.body.detail).toMatch(/application\/json/);
    });

    it('a body over 64 KB is a 413, declared or streamed', async () => {
      const big = JSON.stringify({ ...valid, micro_translation: 'x'.repeat(70_000) });
      expect((await s.post(TOOL, big)).status).toBe(413);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const streamed = await rawRequest(s.url, 'POST', TOOL, {
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: ['{"micro_translation":"', chunk, chunk, chunk, chunk, chunk, '"}'],
      });
      expect(streamed.status).toBe(413);
      expect(JSON.parse(streamed.text).detail).toMatch(/too large/);
    });

    it('an unknown tool is a 404 before the body is read', async () => {
      const res = await s.post('/api/v1/tools/npm-nope-v1', '{not json');
      expect(res).toMatchObject({ status: 404, body: { detail: "Tool 'npm-nope-v1' not found in catalog" } });
    });
  });
});

describe('rate limit on POST /api/v1/tools/{aid}', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ telemetryRatePerMin: 3 });
  });
  afterAll(() => s.cleanup());

  it('answers 429 with Retry-After once a client spends its bucket for one tool; other tools are separate', async () => {
    for (let i = 0; i < 3; i++) expect((await s.post(TOOL, valid)).status).toBe(200);
    const limited = await s.post(TOOL, valid);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body.detail).toMatch(/Too many requests/);
    expect((await s.post('/api/v1/tools/npm-chalk-v1', valid)).status).toBe(200);
    expect((await s.json(TOOL)).status).toBe(200);
    expect((await s.running.ctx.telemetry.counters('npm-axios-v1')).requests).toBe(3);
  });
});
