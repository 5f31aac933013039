// Web-API manifests in the build: validation (npm run validate, a refused build), the prebuilt
// mai-api.json files (the API's own answer, byte for byte), /llmo-apis and /mai-api, counts and sitemap,
// and intent search over the committed catalog.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, CatalogInvalidError } from '../../build/pipeline/build.ts';
import { createCatalogStore } from '../../build/catalog/catalog-store.ts';
import { loadConfig } from '../../build/config.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { loadApiCatalog } from '../../api/services/apis.ts';
import { sampleManifest, writeManifest } from '../helpers/api-manifests.ts';
import { ROOT, runTs } from '../helpers/run-ts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';
const EVIL = '<script>alert(1)</script> & "quoted" <img src=x onerror=alert(2)>';

describe('npm run validate and the build refuse bad API manifests', () => {
  let cat: TempCatalog;
  beforeAll(async () => {
    cat = await tempCatalog([sampleContract('npm-good-v1')]);
    await writeManifest(cat.catalogDir, sampleManifest('good_api'));
    await writeManifest(
      cat.catalogDir,
      sampleManifest('bad_url_api', { manifest: { base_url: 'ftp://files.example.org' } }),
    );
    await writeManifest(cat.catalogDir, sampleManifest('other_api'), 'renamed_api');
    await writeManifest(
      cat.catalogDir,
      sampleManifest('odd_api', { category: 'weather' as never, manifest: { intents: [] } }),
    );
    await fsp.writeFile(path.join(cat.catalogDir, 'apis', 'broken_api.json'), '{"service_name": ');
  });
  afterAll(() => cat.cleanup());

  it('prints one line per error in the tool format and exits 1', async () => {
    const r = await runTs('build/cli/validate.ts', [], { cwd: cat.root, env: { CATALOG_DIR: 'catalog' } });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContain('catalog/apis/bad_url_api.json: /manifest/base_url: must be an http(s) URL');
    expect(lines).toContain(
      'catalog/apis/renamed_api.json: /service_name: "other_api" must equal the file name "renamed_api"',
    );
    expect(lines.some((l) => /^catalog\/apis\/odd_api\.json: \/category: must be one of/.test(l))).toBe(true);
    expect(lines).toContain('catalog/apis/odd_api.json: /manifest/intents: must NOT have fewer than 1 items');
    expect(lines.some((l) => l.startsWith('catalog/apis/broken_api.json: /: not valid JSON'))).toBe(true);
    expect(lines.every((l) => !l.includes('good_api') && !l.includes('npm-good-v1'))).toBe(true);
    expect(lines).toHaveLength(5);
    expect(r.stderr).toContain('6 file(s) checked, 2 valid, 5 error(s)');
  });

  it('checks explicit paths by folder and finds the same name twice', async () => {
    const copy = path.join(cat.root, 'more', 'apis');
    await fsp.mkdir(copy, { recursive: true });
    await fsp.copyFile(path.join(cat.catalogDir, 'apis', 'good_api.json'), path.join(copy, 'good_api.json'));
    const r = await runTs(
      'build/cli/validate.ts',
      ['catalog/apis/good_api.json', 'more/apis/good_api.json', 'catalog/tools'],
      { cwd: cat.root },
    );
    expect(r.stdout.trim()).toBe(
      'more/apis/good_api.json: /service_name: duplicates the service_name of catalog/apis/good_api.json',
    );
    expect(r.code).toBe(1);
  });

  it('the build refuses with the same lines and writes nothing', async () => {
    const err = await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CatalogInvalidError);
    expect((err as CatalogInvalidError).errors).toContain(
      'catalog/apis/bad_url_api.json: /manifest/base_url: must be an http(s) URL',
    );
    expect(existsSync(cat.distDir)).toBe(false);
  });

  // Reads and checks 124,500 recipes as well as the manifests: slow on a loaded machine.
  it('npm run validate passes the committed catalog', { timeout: 300_000 }, async () => {
    const r = await runTs('build/cli/validate.ts', [], { cwd: ROOT });
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('build with API manifests', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  const read = (p: string) => fsp.readFile(path.join(cat.distDir, p), 'utf8');
  const apis = [
    sampleManifest('acme_pay_api', {
      category: 'payments',
      manifest: { service: 'Acme Pay', auth: { type: 'apikey', header: 'X-Api-Key' } },
    }),
    sampleManifest('zeta_mail_api', { manifest: { service: 'Zeta Mail' } }),
    sampleManifest('alpha_mail_api', { manifest: { service: 'Alpha Mail' } }),
    sampleManifest('evil_api', { category: 'maps', manifest: { service: EVIL } }),
    sampleManifest('hidden_api', { record: { verified: false } }),
  ];

  beforeAll(async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1')]);
    for (const m of apis) await writeManifest(cat.catalogDir, m);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
    const config = loadConfig({
      PORT: '0',
      BASE_URL: BASE,
      CATALOG_DIR: cat.catalogDir,
      DIST_DIR: cat.distDir,
      DATA_DIR: cat.dataDir,
    });
    server = await startServer(config);
  });
  afterAll(async () => {
    await server?.close();
    await cat?.cleanup();
  });

  it('writes each verified manifest as the bytes GET /api/v1/services/{name}/mai-api.json answers', async () => {
    for (const m of apis.filter((a) => a.record.verified)) {
      const file = await read(`api/v1/services/${m.service_name}/mai-api.json`);
      expect(file).toBe(JSON.stringify(m.manifest));
      const res = await fetch(`${server.url}/api/v1/services/${m.service_name}/mai-api.json`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(file);
    }
    expect(existsSync(path.join(cat.distDir, 'api/v1/services/hidden_api'))).toBe(false);
  });

  it('counts served manifests in agent.json and build-info, and lists the pages in the sitemap and agent links', async () => {
    const agent = JSON.parse(await read('agent.json'));
    expect(agent.apis_count).toBe(4);
    expect(agent.links).toMatchObject({ apis_index: `${BASE}/llmo-apis`, apis_page: `${BASE}/mai-api` });
    expect(JSON.parse(await read('build-info.json')).apis_count).toBe(4);
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toContain(`<loc>${BASE}/llmo-apis</loc>`);
    expect(sitemap).toContain(`<loc>${BASE}/mai-api</loc>`);
    const index = await read('index.html');
    expect(index).toContain('<a href="/llmo-apis">');
    expect(index).toContain('<a href="/mai-api">');
  });

  it('/llmo-apis: plain index by category, every entry with name, base_url, auth, intents and its manifest link', async () => {
    const html = await read('llmo-apis/index.html');
    expect(html).not.toMatch(/<script|<style|style=|<link rel="stylesheet"/i);
    expect(html).toContain(`<link rel="canonical" href="${BASE}/llmo-apis">`);
    expect(html).toMatch(
      /<h2 id="payments">payments \(1 APIs\)<\/h2>[\s\S]*<h2 id="email">email \(2 APIs\)<\/h2>[\s\S]*<h2 id="maps">/,
    );
    expect(html).toContain(
      '<li><a href="/api/v1/services/acme_pay_api/mai-api.json">acme_pay_api</a>: Acme Pay. base_url <code>https://api.acmepay.com/v1</code>, auth apikey, 1 intent</li>',
    );
    expect(html.indexOf('alpha_mail_api')).toBeLessThan(html.indexOf('zeta_mail_api'));
    expect(html).not.toContain('hidden_api');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &lt;img');
  });

  it('/mai-api: landing page with counts, a category table of contents, the source, its licence and no affiliation', async () => {
    const html = await read('mai-api/index.html');
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toContain(`<link rel="canonical" href="${BASE}/mai-api">`);
    expect(html).toContain('<li><a href="#payments">Payments <span>1</span></a></li>');
    expect(html).toContain('<li><a href="#email">Email <span>2</span></a></li>');
    expect(html).toContain('<strong>4</strong>APIs');
    expect(html).toContain('<a href="https://apis.guru">APIs.guru OpenAPI Directory</a>');
    expect(html).toContain('https://github.com/APIs-guru/openapi-directory');
    expect(html).toMatch(/CC0 1\.0<\/a>; each API definition remains under its provider's own terms/);
    expect(html).toContain('not affiliated with, or endorsed by, the API providers');
    expect(html).toContain('<a href="/api/v1/services/zeta_mail_api/mai-api.json">JSON</a>');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('hidden_api');
  });

  it('the server answers /llmo-apis and /mai-api with and without the trailing slash, under the HTML policy', async () => {
    for (const p of ['/llmo-apis', '/llmo-apis/', '/mai-api', '/mai-api/']) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/script-src/);
      await res.arrayBuffer();
    }
  });

  it('a rebuild links unchanged manifest files from the build before it and writes the changed ones', async () => {
    const before = await fsp.realpath(cat.distDir);
    const changed = { ...apis[1], manifest: { ...apis[1]?.manifest, base_url: 'https://mail.zeta.example/v2' } };
    await writeManifest(cat.catalogDir, changed);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE, changedAids: [] });
    const after = await fsp.realpath(cat.distDir);
    expect(after).not.toBe(before);
    const file = (dir: string, name: string) => path.join(dir, `api/v1/services/${name}/mai-api.json`);
    expect((await fsp.stat(file(after, 'acme_pay_api'))).ino).toBe((await fsp.stat(file(before, 'acme_pay_api'))).ino);
    expect((await fsp.stat(file(after, 'zeta_mail_api'))).ino).not.toBe(
      (await fsp.stat(file(before, 'zeta_mail_api'))).ino,
    );
    expect(JSON.parse(await fsp.readFile(file(after, 'zeta_mail_api'), 'utf8')).base_url).toBe(
      'https://mail.zeta.example/v2',
    );
  });
});

describe('search over the committed API catalog', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apis: false });
    // The real catalog/apis, loaded exactly as the server loads it at start.
    s.running.ctx.apis = await loadApiCatalog(createCatalogStore({ dir: path.join(ROOT, 'catalog') }));
  });
  afterAll(() => s.cleanup());

  const top = async (q: string) =>
    (await s.json(`/api/v1/services/search?q=${encodeURIComponent(q)}`)).body.results.slice(0, 5) as {
      service_name: string;
      category: string;
    }[];

  it('finds a payments API for "accept card payments" (Stripe among the first ten)', async () => {
    expect((await top('accept card payments')).some((r) => r.category === 'payments')).toBe(true);
    const ten = (await s.json('/api/v1/services/search?q=accept+card+payments')).body.results.map(
      (r: { service_name: string }) => r.service_name,
    );
    expect(ten).toContain('stripe_api');
    expect((await top('charge a credit card'))[0]?.service_name).toBe('stripe_api');
  });

  it('finds an email API for "send transactional email" and a maps API for "geocode an address"', async () => {
    const email = await top('send transactional email');
    // Since intents favour writes, a tax API's `send_email` (invoice by email) can rank first; email APIs follow.
    expect(email.slice(0, 2).some((r) => r.category === 'email')).toBe(true);
    expect(email.map((r) => r.service_name).some((n) => /ses|mandrill|postmark|sendgrid|mailgun/.test(n))).toBe(true);
    expect((await top('geocode an address'))[0]?.category).toBe('maps');
  });
});
