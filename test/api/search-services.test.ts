// GET /api/v1/services/search, /api/v1/services/{name}/mai-api.json and the unified /api/v1/search.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, FIXTURES, rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

describe('API manifests and unified search', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.cleanup());

  describe('GET /api/v1/services/search', () => {
    it('answers API listing items for an intent phrase, verified manifests only', async () => {
      const { status, body } = await s.json('/api/v1/services/search?q=send%20transactional%20email');
      expect(status).toBe(200);
      expect(body.query).toBe('send transactional email');
      expect(body.count).toBe(body.results.length);
      expect(body.results[0]).toEqual({
        type: 'api',
        service_name: 'sendgrid',
        category: 'email',
        base_url: 'https://api.sendgrid.com/v3',
        auth_type: 'bearer',
        intents_count: 2,
        manifest_url: `${BASE_URL}/api/v1/services/sendgrid/mai-api.json`,
        trust: { reliability_score: 0.91 },
        operations: [
          // "send … email" covers two of three words; "transactional … templates" and "email statistics" one each.
          { id: 'post_mail_send', method: 'POST', path: '/mail/send', summary: 'Send an email' },
          { id: 'get_templates', method: 'GET', path: '/templates', summary: 'Retrieve paged transactional templates' },
          { id: 'get_stats', method: 'GET', path: '/stats', summary: 'Retrieve global email statistics' },
        ],
      });
      expect(body.results.map((r: any) => r.service_name)).not.toContain('unverified-mailer');
    });

    it('an empty q lists the top manifests by reliability; no match is a 200 with count 0', async () => {
      expect((await s.json('/api/v1/services/search?q=')).body.results.map((r: any) => r.service_name)).toEqual([
        'sendgrid',
        'openweathermap',
      ]);
      expect((await s.json('/api/v1/services/search?q=zzqxv')).body).toEqual({ query: 'zzqxv', count: 0, results: [] });
    });
  });

  describe('GET /api/v1/services/{service_name}/operations[/{operation_id}]', () => {
    it('ranks the operations of one API for an intent, and lists them all a page at a time without one', async () => {
      const ranked = await s.json('/api/v1/services/sendgrid/operations?q=send%20an%20email');
      expect(ranked.status).toBe(200);
      expect(ranked.body.results[0]).toMatchObject({ id: 'post_mail_send', method: 'POST', path: '/mail/send' });
      expect(ranked.body.results[0].params.map((p: any) => [p.name, p.in, p.required])).toEqual([
        ['personalizations', 'body', true],
        ['from', 'body', true],
        ['subject', 'body', false],
      ]);
      const page = await s.json('/api/v1/services/sendgrid/operations?limit=2&offset=1');
      expect(page.body).toMatchObject({ service_name: 'sendgrid', query: '', total: 3, offset: 1, count: 2 });
      expect(page.body.results.map((r: any) => r.id)).toEqual(['post_mail_send', 'get_stats']);
      expect((await s.json('/api/v1/services/sendgrid/operations?limit=0')).status).toBe(422);
    });

    it('answers one recipe by id, and 404s naming what is unknown', async () => {
      const one = await s.json('/api/v1/services/sendgrid/operations/get_stats');
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: 'get_stats', method: 'GET', path: '/stats', auth: [['bearer']] });
      const noOp = await s.json('/api/v1/services/sendgrid/operations/nope');
      expect(noOp.status).toBe(404);
      expect(noOp.body.detail).toMatch(/No operation 'nope' in sendgrid/);
      expect((await s.json('/api/v1/services/nothing_here/operations')).status).toBe(404);
      // An API served without a recipes file has no operations (not an error).
      expect((await s.json('/api/v1/services/openweathermap/operations')).body).toMatchObject({
        total: 0,
        results: [],
      });
    });

    it('without q is a 422 (FastAPI shape)', async () => {
      const { status, body } = await s.json('/api/v1/services/search');
      expect(status).toBe(422);
      expect(body).toEqual({ detail: [{ loc: ['query', 'q'], msg: 'Field required', type: 'missing' }] });
    });
  });

  describe('GET /api/v1/services/{service_name}/mai-api.json', () => {
    it('serves the manifest of a verified service', async () => {
      const record = JSON.parse(await fsp.readFile(path.join(FIXTURES, 'apis', 'sendgrid.json'), 'utf8'));
      const { status, body } = await s.json('/api/v1/services/sendgrid/mai-api.json');
      expect(status).toBe(200);
      expect(body).toEqual(record.manifest);
    });

    it.each(['nope', 'unverified-mailer', 'SendGrid', '..%2fsendgrid', '%2e%2e'])(
      'answers 404 for %s',
      async (name) => {
        const res = await rawRequest(s.url, 'GET', `/api/v1/services/${name}/mai-api.json`);
        expect(res.status).toBe(404);
        // %2e%2e is a dot segment to URL parsing: the path collapses before routing, still a 404.
        expect(JSON.parse(res.text).detail).toMatch(name === '%2e%2e' ? /Not Found/ : /No compiled manifest/);
      },
    );
  });

  describe('GET /api/v1/search', () => {
    it('answers tools first, then APIs, each tagged, at most 5 per catalog', async () => {
      const { status, body } = await s.json('/api/v1/search?q=email');
      expect(status).toBe(200);
      expect(body.query).toBe('email');
      expect(body.tools).toBeLessThanOrEqual(5);
      expect(body.apis).toBeLessThanOrEqual(5);
      expect(body.total).toBe(body.tools + body.apis);
      expect(body.results).toHaveLength(body.total);
      const types = body.results.map((r: any) => r.type);
      expect(types).toEqual([...Array(body.tools).fill('tool'), ...Array(body.apis).fill('api')]);
      expect(body.results[0]).toMatchObject({
        type: 'tool',
        endpoint: expect.stringMatching(/^GET \/api\/v1\/tools\//),
        registry: expect.any(Object),
      });
      expect(body.results[0].action).toBeUndefined();
      expect(body.results.find((r: any) => r.type === 'api').service_name).toBe('sendgrid');
    });

    it('caps each catalog at 5 and the total at 10', async () => {
      const { body } = await s.json('/api/v1/search?q=');
      expect(body.tools).toBe(5);
      expect(body.apis).toBe(2);
      expect(body.total).toBeLessThanOrEqual(10);
    });

    it('without q is a 422', async () => {
      const { status, body } = await s.json('/api/v1/search');
      expect(status).toBe(422);
      expect(body.detail[0]).toMatchObject({ loc: ['query', 'q'], type: 'missing' });
    });
  });
});

describe('without any API manifests', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apis: false });
  });
  afterAll(() => s.cleanup());

  it('services search answers 200 with count 0 and the unified search has tools only', async () => {
    expect((await s.json('/api/v1/services/search?q=email')).body).toEqual({ query: 'email', count: 0, results: [] });
    const { body } = await s.json('/api/v1/search?q=email');
    expect(body.apis).toBe(0);
    expect(body.tools).toBeGreaterThan(0);
    expect((await s.json('/api/v1/services/sendgrid/mai-api.json')).status).toBe(404);
  });
});
