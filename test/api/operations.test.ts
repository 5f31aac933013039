// What an operator relies on: precompressed dist/ files served by Accept-Encoding, dynamic answers over
// 1 KB compressed on the fly, ETag/304 and Cache-Control on deterministic answers (an ETag that follows
// live counters), /metrics with its token, X-Request-Id, and JSON log lines without secrets or addresses.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { loadConfig } from '../../build/config.ts';
import { MIN_COMPRESS_BYTES, isCompressible } from '../../build/compress/precompress.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

/** Raw bytes (no transparent decompression, unlike fetch). */
function get(url: string, p: string, headers: Record<string, string> = {}, method = 'GET') {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      import('node:http').then(({ default: http }) => {
        http
          .request({ hostname, port, path: p, headers, method }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
            );
          })
          .on('error', reject)
          .end();
      }, reject);
    },
  );
}

function logCapture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('compressed dist/ files', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  const logs = logCapture();
  beforeAll(async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      sampleContract(`npm-sample-${i}-v1`, {
        identity: { task: `Sends email number ${i} through an SMTP relay with retries and templates` },
      }),
    );
    cat = await tempCatalog(many);
    const config = loadConfig({
      PORT: '0',
      CATALOG_DIR: cat.catalogDir,
      DIST_DIR: cat.distDir,
      DATA_DIR: cat.dataDir,
      BASE_URL: 'https://catalog.example',
      METRICS_TOKEN: 'scrape-me',
    });
    await build({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl });
    server = await startServer(config, { log: logs.log, shutdownGraceMs: 2_000 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await cat?.cleanup();
  });

  it('writes .br and .gz beside every compressible file of 1 KB or more, decompressing to the same bytes', async () => {
    const files = await filesUnder(path.resolve(cat.distDir));
    const originals = files.filter((f) => isCompressible(f));
    let checked = 0;
    for (const f of originals) {
      const data = await fsp.readFile(f);
      if (data.length < MIN_COMPRESS_BYTES) continue;
      expect(zlib.brotliDecompressSync(await fsp.readFile(`${f}.br`)).equals(data), f).toBe(true);
      expect(zlib.gunzipSync(await fsp.readFile(`${f}.gz`)).equals(data), f).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    expect(files.some((f) => f.endsWith('.png.br'))).toBe(false);
  });

  for (const [p, type] of [
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/', 'text/html; charset=utf-8'],
  ] as const) {
    it(`serves ${p} by Accept-Encoding with Vary, the original type and the same content`, async () => {
      const plain = await get(server.url, p);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
      const br = await get(server.url, p, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toBe(type);
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length);
      const gz = await get(server.url, p, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
      // A validator per representation: the compressed file's ETag is not the plain one's.
      expect(gz.headers.etag).not.toBe(plain.headers.etag);
      const again = await get(server.url, p, { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
      expect(again.status).toBe(304);
    });
  }

  it('/metrics needs the bearer token, then counts requests by route pattern and status', async () => {
    await get(server.url, '/api/v1/tools/npm-sample-1-v1');
    await get(server.url, '/api/v1/tools/npm-sample-2-v1');
    await get(server.url, '/api/v1/tools/npm-nothing-v1');
    expect((await get(server.url, '/metrics')).status).toBe(401);
    expect((await get(server.url, '/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
    const res = await get(server.url, '/metrics', { authorization: 'Bearer scrape-me' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body.toString();
    expect(text).toContain('tcc_http_requests_total{route="/api/v1/tools/:aid",method="GET",status="200"} 2');
    expect(text).toContain('tcc_http_requests_total{route="/api/v1/tools/:aid",method="GET",status="404"} 1');
    expect(text).toContain('tcc_http_requests_total{route="/metrics",method="GET",status="401"} 2');
    expect(text).toMatch(
      /tcc_http_request_duration_seconds_bucket\{le="[\d.]+",route="\/api\/v1\/tools\/:aid",method="GET"\} \d+/,
    );
    expect(text).toMatch(/tcc_telemetry_reports\{kind="lookups"\} \d+/);
    expect(text).toContain('tcc_review_queue_pending 0');
  });

  it('logs one JSON line per request with a request id, never the client address or a secret', async () => {
    const given = await get(server.url, '/api/v1/tools/npm-sample-3-v1?q=secret-query', {
      'x-request-id': 'trace-abc.123',
    });
    expect(given.headers['x-request-id']).toBe('trace-abc.123');
    const invented = await get(server.url, '/health', { 'x-request-id': 'bad id with spaces <script>' });
    expect(invented.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await get(server.url, '/admin/contributions', { 'x-admin-secret': 'not-the-secret-xyz' });
    const line = logs.lines.find((l) => l.req_id === 'trace-abc.123');
    expect(line).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: '/api/v1/tools/:aid',
      path: '/api/v1/tools/npm-sample-3-v1',
      status: 200,
    });
    expect(logs.lines.some((l) => l.req_id === invented.headers['x-request-id'] && l.route === '/health')).toBe(true);
    const all = JSON.stringify(logs.lines);
    expect(all).not.toContain('127.0.0.1');
    expect(all).not.toContain('not-the-secret-xyz');
    expect(all).not.toContain('secret-query');
  });

  it('the CDN files never route /metrics to the API', async () => {
    const redirects = await fsp.readFile(path.join(cat.distDir, '_redirects'), 'utf8');
    expect(redirects).not.toMatch(/metrics/);
    const headers = await fsp.readFile(path.join(cat.distDir, '_headers'), 'utf8');
    // Every path rule of _headers matches at least one file of dist/ (the old shard rule matched none).
    const files = (await filesUnder(path.resolve(cat.distDir))).map(
      (f) => `/${path.relative(path.resolve(cat.distDir), f)}`,
    );
    // (/sitemaps/* and /page/* only exist past 50,000 URLs and 2,000 entries, the recipe files with web APIs.)
    const later = new Set(['/sitemaps/*', '/page/*', '/api/v1/services/*/operations*']);
    for (const rule of headers.split('\n').filter((l) => l.startsWith('/') && !later.has(l))) {
      const re = new RegExp(
        `^${rule.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}${rule.endsWith('/') ? 'index\\.html' : '(/index\\.html)?'}$`,
      );
      expect(
        files.some((f) => re.test(f)),
        rule,
      ).toBe(true);
    }
    expect(existsSync(path.join(cat.distDir, 'llms.txt.br'))).toBe(true);
  });
});

describe('dynamic answers: compression and conditional GETs', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  it('compresses answers over 1 KB as the client asks, and leaves small ones alone', async () => {
    const plain = await get(s.url, '/api/v1/tools?q=email');
    expect(plain.body.length).toBeGreaterThan(1024);
    const gz = await get(s.url, '/api/v1/tools?q=email', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const br = await get(s.url, '/api/v1/tools?q=email', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const small = await get(s.url, '/api/v1/tools/npm-nothing-v1', { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(404);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('HEAD gets no body, a coding at q=0 is never used, identity is plain, lengths are exact', async () => {
    const p = '/api/v1/tools?q=email';
    const head = await get(s.url, p, { 'accept-encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const notBr = await get(s.url, p, { 'accept-encoding': 'br;q=0, gzip' });
    expect(notBr.headers['content-encoding']).toBe('gzip');
    expect(Number(notBr.headers['content-length'])).toBe(notBr.body.length);
    const identity = await get(s.url, p, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body.toString())).toEqual(JSON.parse(zlib.gunzipSync(notBr.body).toString()));
  });

  it('a contract has an ETag that follows its live counters: 304 while unchanged, 200 after a report', async () => {
    const p = '/api/v1/tools/npm-axios-v1';
    const first = await get(s.url, p);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    // A lookup is counted, but lookups are not in the shown counters: the answer and its ETag stay.
    const same = await get(s.url, p, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    expect(same.headers.etag).toBe(etag);
    const reported = await s.post(p, { execution_feedback: 200, trend_keyword: 'fetch some json' });
    expect(reported.status).toBe(200);
    const after = await get(s.url, p, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(JSON.parse(after.body.toString()).trust.telemetry.requests).toBe(1);
  });

  for (const [p, cacheControl] of [
    ['/openapi.json', 'public, max-age=60'],
    ['/api/v1/services/sendgrid/mai-api.json', 'public, max-age=60'],
    ['/api/v1/tools/npm-axios-v1/instructions', 'public, max-age=60'],
    ['/.well-known/agent.json', 'no-cache'],
    ['/agent.json', 'no-cache'],
  ] as const) {
    it(`${p}: ETag, ${cacheControl}, 304 on If-None-Match (also with a list and a weak tag)`, async () => {
      const first = await get(s.url, p);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe(cacheControl);
      const etag = String(first.headers.etag);
      expect((await get(s.url, p, { 'if-none-match': etag })).status).toBe(304);
      expect((await get(s.url, p, { 'if-none-match': `"other", ${etag.replace(/^W\//, '')}` })).status).toBe(304);
      expect((await get(s.url, p, { 'if-none-match': '"other"' })).status).toBe(200);
    });
  }

  it('searches and listings carry no validators (they change with every report)', async () => {
    const res = await get(s.url, '/api/v1/tools?q=email');
    expect(res.headers.etag).toBeUndefined();
    expect((await rawRequest(s.url, 'GET', '/api/v1/search?q=email')).headers.etag).toBeUndefined();
  });
});
