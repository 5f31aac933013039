// Security headers and CORS on real responses: nosniff and the referrer policy everywhere (errors and
// preflights included), a strict CSP on HTML with the per-path allowance for /search/, CORS open for the
// public API and MCP, closed for admin routes. Chromium confirms the CSP really stops an injected script.
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_HEADERS, corsClassOf } from '../../api/http/cors.ts';
import { contentSecurityPolicy } from '../../api/http/security-headers.ts';
import { launchChromium } from '../helpers/browser.ts';
import { buildToolsSite } from '../helpers/redis.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

const STRICT =
  "default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const ORIGIN = 'https://agent.example';

describe('security headers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await buildToolsSite(s.catalogDir, s.distDir);
    // Stand-ins for pages the build may add: the search page and a page carrying an injected script.
    await fsp.mkdir(path.join(s.distDir, 'search'), { recursive: true });
    await fsp.writeFile(
      path.join(s.distDir, 'search', 'index.html'),
      '<!doctype html><title>search</title><script src="/search/app.js"></script>',
    );
    // The build's precompressed copies of the replaced page would be served in its place.
    for (const ext of ['.br', '.gz']) await fsp.rm(path.join(s.distDir, 'search', `index.html${ext}`), { force: true });
    await fsp.writeFile(path.join(s.distDir, 'search', 'app.js'), 'document.title = "ran";');
    await fsp.writeFile(
      path.join(s.distDir, 'injected.html'),
      '<!doctype html><title>x</title><script>document.title = "pwned"</script><img src="https://evil.example/x.png">',
    );
  });
  afterAll(() => s.cleanup());

  const common = (h: Headers) => {
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  };

  it.each(['/', '/tools/npm-axios-v1/'])(
    'HTML %s carries the strict CSP (no script-src) and the common headers',
    async (p) => {
      const res = await s.fetch(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(STRICT);
      common(res.headers);
    },
  );

  it('the search page may run same-origin scripts and fetch its index, nothing more', async () => {
    const res = await s.fetch('/search/');
    expect(res.headers.get('content-security-policy')).toBe(`${STRICT}; script-src 'self'; connect-src 'self'`);
    expect(contentSecurityPolicy('/searching')).toBe(STRICT);
    expect(contentSecurityPolicy('/tools/search/')).toBe(STRICT);
  });

  it.each([
    ['GET', '/api/v1/tools', 200],
    ['GET', '/api/v1/tools/npm-nope-v1', 404],
    ['GET', '/api/v1/tools/trending?limit=x', 422],
    ['PUT', '/api/v1/tools', 405],
    ['GET', '/robots.txt', 200],
    ['GET', '/health', 200],
    ['HEAD', '/', 200],
    ['HEAD', '/api/v1/tools', 200],
  ])('%s %s (%i): common headers, no CSP on non-HTML', async (method, p, status) => {
    const res = await s.fetch(p, { method });
    expect(res.status).toBe(status);
    common(res.headers);
    if (!/html/.test(res.headers.get('content-type') ?? ''))
      expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('a 413 for an over-long streamed body carries them too', async () => {
    const big = await rawRequest(s.url, 'POST', '/api/v1/tools/npm-axios-v1', {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: ['{"a":"', Buffer.alloc(70_000, 'x'), '"}'],
    });
    expect(big.status).toBe(413);
    expect(big.headers['x-content-type-options']).toBe('nosniff');
    expect(big.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(big.headers['access-control-allow-origin']).toBe('*');
  });

  it('Chromium obeys the CSP: an injected inline script and a foreign image do not load; the search page script runs', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${s.url}/injected.html`);
      expect(await page.title()).toBe('x');
      expect(violations.join('\n')).toMatch(/script-src|default-src/);
      expect(violations.join('\n')).toMatch(/evil\.example\/x\.png.*img-src|img-src.*evil\.example/s);
      await page.goto(`${s.url}/search/`);
      await page.waitForFunction(() => document.title === 'ran', null, { timeout: 5000 });
    } finally {
      await browser.close();
    }
  });
});

describe('CORS', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ telemetryRatePerMin: 1 });
  });
  afterAll(() => s.cleanup());

  const preflight = (p: string, method = 'POST') =>
    s.fetch(p, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': method,
        'access-control-request-headers': 'content-type',
      },
    });

  it('classifies paths: public API and MCP open, admin and ingest/translate closed, the rest untouched', () => {
    expect(['/api/v1/tools', '/api/v1/search', '/api/v1/contribute', '/mcp'].map(corsClassOf)).toEqual([
      'public',
      'public',
      'public',
      'public',
    ]);
    expect(['/admin', '/admin/reviews', '/api/v1/ingest', '/api/v1/translate/x'].map(corsClassOf)).toEqual([
      'closed',
      'closed',
      'closed',
      'closed',
    ]);
    expect(['/', '/health', '/administrator', '/api/v1/ingestion-docs'].map(corsClassOf)).toEqual([
      'other',
      'other',
      'other',
      'public',
    ]);
    expect(
      [
        '/openapi.json',
        '/agent.json',
        '/.well-known/mcp.json',
        '/.well-known/mcp/server-card.json',
        '/openapi.json.bak',
      ].map(corsClassOf),
    ).toEqual(['public', 'public', 'public', 'public', 'other']);
  });

  it.each(['/openapi.json', '/agent.json', '/.well-known/mcp/server-card.json'])(
    'discovery %s: open on answers and preflights',
    async (p) => {
      const res = await s.fetch(p, { headers: { origin: ORIGIN } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const pre = await preflight(p, 'GET');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it('public API answers carry Access-Control-Allow-Origin: * (GET, POST, and errors like 422 and 429)', async () => {
    const get = await s.fetch('/api/v1/tools?q=http', { headers: { origin: ORIGIN } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    const post = (body: unknown) =>
      s.fetch('/api/v1/tools/npm-chalk-v1', {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await post({ execution_feedback: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    expect(
      (await post({ execution_feedback: 200, trend_keyword: 'colour text' })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBe('*');
    const limited = await post({ execution_feedback: 200, trend_keyword: 'colour text' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
    expect(limited.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it.each(['/api/v1/tools/npm-axios-v1', '/api/v1/search', '/api/v1/contribute', '/mcp'])(
    'preflight %s: 204 with methods and headers',
    async (p) => {
      const res = await preflight(p);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toMatch(/\bGET\b.*\bPOST\b/);
      expect(res.headers.get('access-control-allow-headers')).toBe(ALLOWED_HEADERS);
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (p === '/mcp') expect(res.headers.get('access-control-allow-methods')).toMatch(/DELETE/);
    },
  );

  it.each(['/admin/reviews', '/admin/tools/npm-axios-v1', '/api/v1/ingest', '/api/v1/translate'])(
    'admin %s: preflight refused, no ACAO on any answer',
    async (p) => {
      const pre = await preflight(p);
      expect(pre.status).toBe(403);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(pre.headers.get('access-control-allow-methods')).toBeNull();
      for (const method of ['GET', 'POST']) {
        const res = await s.fetch(p, {
          method,
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    },
  );

  it('a real cross-origin page may call the public API but cannot read an admin route', async () => {
    // Another origin: a plain page from a second loopback server (a different port is a different origin).
    const other = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<title>elsewhere</title>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      const result = await page.evaluate(async (base) => {
        const attempt = async (p: string, init?: RequestInit) => {
          try {
            return (await fetch(base + p, init)).status;
          } catch {
            return 'blocked';
          }
        };
        return {
          get: await attempt('/api/v1/tools/npm-axios-v1'),
          post: await attempt('/api/v1/tools/npm-request-v1', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"execution_feedback":200,"trend_keyword":"from a page"}',
          }),
          admin: await attempt('/admin/reviews', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          }),
        };
      }, s.url);
      expect(result).toEqual({ get: 200, post: 200, admin: 'blocked' });
    } finally {
      await browser.close();
      other.close();
    }
  });
});
