// The server serves the prebuilt dist/: content types, ETag, 304, Cache-Control, JSON 404s; `npm start`
// builds dist/ when it is missing and then serves it.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { loadConfig } from '../../build/config.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { childEnv, nodeArgs, ROOT } from '../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

describe('static files from dist/', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  beforeAll(async () => {
    cat = await tempCatalog([
      sampleContract('npm-alpha-v1'),
      sampleContract('pypi-beta-v1', { identity: { platform: 'pypi' } }),
    ]);
    const config = loadConfig({
      PORT: '0',
      CATALOG_DIR: cat.catalogDir,
      DIST_DIR: cat.distDir,
      DATA_DIR: cat.dataDir,
      BASE_URL: 'https://catalog.example',
    });
    await build({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl });
    server = await startServer(config);
  });
  afterAll(async () => {
    await server?.close();
    await cat?.cleanup();
  });

  const cases: [string, string][] = [
    ['/', 'text/html; charset=utf-8'],
    ['/tools/npm-alpha-v1/', 'text/html; charset=utf-8'],
    ['/sitemap.xml', 'application/xml'],
    ['/robots.txt', 'text/plain; charset=utf-8'],
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/static/v1/tools/npm-alpha-v1.json', 'application/json'],
    ['/static/v1/tools.json', 'application/json'],
  ];
  for (const [p, type] of cases) {
    it(`GET ${p} answers ${type} with ETag and Cache-Control`, async () => {
      const res = await fetch(server.url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
      expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
      expect((await res.text()).length).toBeGreaterThan(0);
    });
  }

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${server.url}/robots.txt`);
    const etag = first.headers.get('etag') as string;
    const again = await fetch(`${server.url}/robots.txt`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers HEAD without a body', async () => {
    const res = await fetch(`${server.url}/llms.txt`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it("every API link llms.txt gives an agent answers 200 here (the example searches' parameters included)", async () => {
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    const links = [...llms.matchAll(/\]\((https:\/\/catalog\.example(\/api\/v1\/[^)]+))\)/g)].map((m) => m[2]!);
    expect(links.some((l) => l.includes('inputs=') && l.includes('formats='))).toBe(true);
    for (const link of links) expect((await fetch(server.url + link)).status, link).toBe(200);
  });

  it('answers unknown paths and path tricks with a JSON 404', async () => {
    for (const p of ['/nope', '/tools/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/static/v1/tools/%00.json']) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('GET /health reports status, counts and build time', async () => {
    const body = await (await fetch(`${server.url}/health`)).json();
    expect(body).toMatchObject({
      status: 'ok',
      tools_count: 2,
      build: { tools_count: 2, generated_at: expect.any(String) },
    });
  });
});

describe('npm start', () => {
  it('builds dist/ when it is missing, then serves the site and the API on one port', {
    timeout: 180_000,
  }, async () => {
    const cat = await tempCatalog([sampleContract('npm-alpha-v1')]);
    const [cmd, args] = nodeArgs('api/main.ts');
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: childEnv({ PORT: '0', CATALOG_DIR: cat.catalogDir, DIST_DIR: cat.distDir, DATA_DIR: cat.dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1] as string);
        });
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err.slice(-2000)}`)));
      });
      const page = await fetch(`${url}/tools/npm-alpha-v1/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1>alpha</h1>');
      expect((await (await fetch(`${url}/health`)).json()).tools_count).toBe(1);
    } finally {
      child.kill('SIGTERM');
      await cat.cleanup();
    }
  });
});
