// Admin authentication over HTTP: 503 while ADMIN_SECRET is unset, 401 without the header, 403 with a
// wrong one, 429 after 10 wrong ones from a client within a minute; no CORS; the secret never leaks.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AdminServer, SECRET, startAdminServer } from './admin-helpers.ts';

const ROUTES: [method: 'GET' | 'POST', path: string][] = [
  ['POST', '/api/v1/ingest'],
  ['POST', '/api/v1/translate'],
  ['POST', '/admin/update-trust'],
  ['GET', '/admin/contributions'],
  ['POST', '/admin/contributions/abc/accept'],
  ['POST', '/admin/contributions/abc/reject'],
  ['GET', '/admin/trust-evidence'],
  ['GET', '/admin/rebuild'],
];

describe('admin disabled (no ADMIN_SECRET)', () => {
  let s: AdminServer;
  beforeAll(async () => {
    s = await startAdminServer({ secret: null, apis: false });
  });
  afterAll(() => s.cleanup());

  it('answers 503 {"detail":"admin disabled"} on every admin route, secret or not', async () => {
    for (const [method, p] of ROUTES) {
      const r = await s.admin(method, p, method === 'POST' ? {} : undefined);
      expect([method, p, r.status, r.body]).toEqual([method, p, 503, { detail: 'admin disabled' }]);
    }
  });
});

describe('admin secret', () => {
  let s: AdminServer;
  const logged: string[] = [];
  beforeAll(async () => {
    s = await startAdminServer({ apis: false });
    for (const m of ['log', 'error', 'warn', 'info'] as const) {
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      });
    }
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await s.cleanup();
  });

  const from = (ip: string, secret?: string) => ({
    'x-forwarded-for': ip,
    ...(secret === undefined ? {} : { 'x-admin-secret': secret }),
  });

  it('401 without the header, 403 with a wrong one, 200 with the right one', async () => {
    for (const [method, p] of ROUTES) {
      const missing = await s.json(p, { method, headers: from('10.1.0.1') });
      expect([p, missing.status]).toEqual([p, 401]);
      const wrong = await s.json(p, { method, headers: from('10.1.0.2', `${SECRET}x`) });
      expect([p, wrong.status, wrong.body.detail]).toEqual([p, 403, 'wrong admin secret']);
    }
    const ok = await s.json('/admin/rebuild', { headers: from('10.1.0.3', SECRET) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ running: false, builds: 0 });
  });

  it('locks a client out with 429 and Retry-After after 10 wrong secrets in a minute, even with the right one', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await s.json('/admin/rebuild', { headers: from('10.2.0.1', `guess-${i}`) })).status).toBe(403);
    }
    const locked = await s.json('/admin/rebuild', { headers: from('10.2.0.1', SECRET) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another client is not affected.
    expect((await s.json('/admin/rebuild', { headers: from('10.2.0.2', SECRET) })).status).toBe(200);
  });

  it('keeps CORS closed: no Access-Control-Allow-Origin on admin answers or preflights', async () => {
    const origin = { origin: 'https://evil.example' };
    for (const [method, p] of ROUTES) {
      const r = await s.fetch(p, { method, headers: { ...origin, ...from('10.3.0.1', SECRET) } });
      await r.arrayBuffer();
      expect([p, r.headers.get('access-control-allow-origin')]).toEqual([p, null]);
      const pre = await s.fetch(p, {
        method: 'OPTIONS',
        headers: {
          ...origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-admin-secret',
        },
      });
      await pre.arrayBuffer();
      expect([p, pre.headers.get('access-control-allow-origin')]).toEqual([p, null]);
      expect(pre.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('documents every admin route in OpenAPI under the X-Admin-Secret security scheme', async () => {
    const doc = (await s.json('/openapi.json')).body;
    expect(doc.components.securitySchemes.adminSecret).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Admin-Secret',
    });
    for (const [method, p] of ROUTES) {
      const op = doc.paths[p.replace('/abc/', '/{id}/')]?.[method.toLowerCase()];
      expect(op?.security, `${method} ${p}`).toEqual([{ adminSecret: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
    }
    // Public: it says so with an empty requirement list (the OpenAPI linters want every operation explicit).
    expect(doc.paths['/api/v1/contribute'].post.security).toEqual([]);
    for (const name of ['IngestRequest', 'TranslateRequest', 'UpdateTrustRequest', 'ContributionRequest'])
      expect(doc.components.schemas[name]).toBeDefined();
  });

  it('never puts the secret in an answer or a log line', async () => {
    const near = SECRET.slice(0, -1);
    const answers = [
      await s.json('/admin/rebuild', { headers: from('10.4.0.1', near) }),
      await s.json('/api/v1/ingest', {
        method: 'POST',
        headers: { ...from('10.4.0.2', SECRET), 'content-type': 'application/json' },
        body: '{"identity": ',
      }),
      await s.json('/api/v1/ingest', {
        method: 'POST',
        headers: { ...from('10.4.0.3', SECRET), 'content-type': 'application/json' },
        body: JSON.stringify({ secret: SECRET }),
      }),
    ];
    for (const a of answers) expect(JSON.stringify(a.body)).not.toContain(near);
    expect(logged.join('\n')).not.toContain(near);
  });
});
