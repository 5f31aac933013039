// The operation recipes as static copies in a real built dist/: gzip-only files the API's own answers
// unpack to, byte for byte, linked from a recipe store that each recipes file is unpacked into once; the
// server's static handler sends a gzip-only file as it is to a client that takes gzip and unpacked to one
// that does not; the CDN config rewrites the dynamic paths to them; stale store entries are pruned.
import { existsSync, promises as fsp, readlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsFileContent, operationsFilePath, parseOperationsFile } from '../../build/apis/recipe-schema.ts';
import type { OperationsFile } from '../../build/apis/recipe-schema.ts';
import { pruneRecipeStore, recipesStoreOf } from '../../build/discovery/api-recipes-static.ts';
import { build } from '../../build/pipeline/build.ts';
import { buildsDirOf } from '../../build/pipeline/dist-swap.ts';
import { loadConfig } from '../../build/config.ts';
import { createLogger } from '../../api/ops/logger.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { sampleManifest, sampleRecipes, writeManifest } from '../helpers/api-manifests.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const BASE_URL = 'https://catalog.example';

/** A raw GET: no Accept-Encoding unless given, no transparent decompression (a client without gzip support). */
function rawGet(url: string, p: string, headers: Record<string, string> = {}, method = 'GET') {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request({ hostname, port, path: p, headers, method }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject)
      .end();
  });
}

describe('static operation recipes in dist/', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  const s = {
    get url() {
      return server.url;
    },
    get distDir() {
      return cat.distDir;
    },
    get catalogDir() {
      return cat.catalogDir;
    },
  };
  const services = () => path.join(s.distDir, 'api/v1/services');
  const unzip = async (file: string) => gunzipSync(await fsp.readFile(file)).toString('utf8');
  const buildSite = async () => {
    const r = await build({ catalogDir: s.catalogDir, distDir: s.distDir, baseUrl: BASE_URL });
    await r.pruned;
    return JSON.parse(await fsp.readFile(path.join(s.distDir, 'build-info.json'), 'utf8'));
  };

  beforeAll(async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1')]);
    // One API with recipes, one without, one not served.
    await writeManifest(cat.catalogDir, sampleManifest('courier_api'));
    await fsp.mkdir(path.join(cat.catalogDir, 'apis', 'operations'));
    await fsp.writeFile(
      operationsFilePath(path.join(cat.catalogDir, 'apis'), 'courier_api'),
      operationsFileContent({ service_name: 'courier_api', operations: sampleRecipes() }),
    );
    await writeManifest(cat.catalogDir, sampleManifest('parcel_api'));
    await writeManifest(cat.catalogDir, sampleManifest('draft_api', { record: { verified: false } }));
    await buildSite();
    const config = loadConfig({
      PORT: '0',
      CATALOG_DIR: cat.catalogDir,
      DIST_DIR: cat.distDir,
      DATA_DIR: cat.dataDir,
      BASE_URL,
    });
    server = await startServer(config, { log: createLogger('silent') });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await cat?.cleanup();
  });

  it('holds each served API’s whole operation list and every recipe, gzip only, as the API answers them', async () => {
    const recipes = parseOperationsFile(
      await fsp.readFile(operationsFilePath(path.join(s.catalogDir, 'apis'), 'courier_api')),
    ) as OperationsFile;
    expect(recipes.operations.length).toBeGreaterThan(1);
    const dir = path.join(services(), 'courier_api');
    // The list: what GET …/operations answers (these 3 fit its first page), byte for byte.
    const dynamicList = await rawGet(s.url, '/api/v1/services/courier_api/operations');
    expect(await unzip(path.join(dir, 'operations.json.gz'))).toBe(dynamicList.body.toString('utf8'));
    expect(JSON.parse(await unzip(path.join(dir, 'operations.json.gz')))).toMatchObject({
      service_name: 'courier_api',
      query: '',
      total: recipes.operations.length,
      offset: 0,
      count: recipes.operations.length,
    });
    for (const op of recipes.operations) {
      const dynamic = await rawGet(s.url, `/api/v1/services/courier_api/operations/${op.id}`);
      expect(dynamic.status).toBe(200);
      expect(await unzip(path.join(dir, 'operations', `${op.id}.json.gz`))).toBe(dynamic.body.toString('utf8'));
    }
    expect((await fsp.readdir(path.join(dir, 'operations'))).sort()).toEqual(
      recipes.operations.map((o) => `${o.id}.json.gz`).sort(),
    );
    expect(existsSync(path.join(dir, 'operations.json'))).toBe(false);
    // An API served without a recipes file has an empty list, as the API answers; an unserved one has none.
    expect(JSON.parse(await unzip(path.join(services(), 'parcel_api', 'operations.json.gz')))).toMatchObject({
      total: 0,
      results: [],
    });
    expect(existsSync(path.join(services(), 'draft_api'))).toBe(false);
  });

  it('links them from the recipe store with relative symlinks, which no compression pass walks', async () => {
    const link = readlinkSync(path.join(services(), 'courier_api', 'operations'));
    expect(path.isAbsolute(link)).toBe(false);
    const target = await fsp.realpath(path.join(services(), 'courier_api', 'operations'));
    expect(path.relative(await fsp.realpath(recipesStoreOf(s.distDir)), target)).toMatch(
      /^courier_api-[0-9a-f]{16}\/operations$/,
    );
    // Precompression skipped them: no .br or .gz of a .gz.
    const files = await fsp.readdir(path.join(services(), 'courier_api', 'operations'));
    expect(files.filter((f) => f.endsWith('.gz.gz') || f.endsWith('.br'))).toEqual([]);
  });

  it('serves a gzip-only file as it is to a client that takes gzip, unpacked to one that does not', async () => {
    const p = '/api/v1/services/courier_api/operations.json';
    const file = await fsp.readFile(path.join(services(), 'courier_api', 'operations.json.gz'));
    const gz = await rawGet(s.url, p, { 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('application/json');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.body.equals(file)).toBe(true);
    const plain = await rawGet(s.url, p);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json');
    expect(plain.body.toString('utf8')).toBe(gunzipSync(file).toString('utf8'));
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    // One ETag per variant; each revalidates to 304.
    expect(plain.headers.etag).not.toBe(gz.headers.etag);
    const again = await rawGet(s.url, p, { 'if-none-match': String(plain.headers.etag) });
    expect(again.status).toBe(304);
    const head = await rawGet(s.url, p, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    // Only text formats: a real archive beside nothing is never sent as an encoding.
    await fsp.writeFile(path.join(s.distDir, 'bundle.tar.gz'), gzipSync('not a text file'));
    expect((await rawGet(s.url, '/bundle.tar')).status).toBe(404);
  });

  it('tells the CDN to rewrite the dynamic paths to the gzip files, above the API proxy, and how to send them', async () => {
    const redirects = await fsp.readFile(path.join(s.distDir, '_redirects'), 'utf8');
    const lines = redirects.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.startsWith(text));
    for (const q of ['q', 'limit', 'offset'])
      expect(lines).toContain(
        `/api/v1/services/:name/operations  ${q}=:${q}  ${BASE_URL}/api/v1/services/:name/operations  200`,
      );
    expect(lines).toContain('/api/v1/services/:name/operations  /api/v1/services/:name/operations.json.gz  200');
    expect(lines).toContain(
      '/api/v1/services/:name/operations/:id  /api/v1/services/:name/operations/:id.json.gz  200',
    );
    expect(at('/api/v1/services/:name/operations  q=')).toBeLessThan(at('/api/v1/services/:name/operations  /api'));
    expect(at('/api/v1/services/:name/operations/:id')).toBeLessThan(at('/api/*'));
    const headers = await fsp.readFile(path.join(s.distDir, '_headers'), 'utf8');
    expect(headers).toContain(
      '/api/v1/services/*/operations*\n  Content-Type: application/json\n  Content-Encoding: gzip\n  Access-Control-Allow-Origin: *\n',
    );
  });

  it('unpacks a recipes file once: later builds only link; a changed file gets a new entry, the unused one is pruned', async () => {
    const store = recipesStoreOf(s.distDir);
    const before = (await fsp.readdir(store)).filter((e) => e.startsWith('courier_api-'));
    expect(before).toHaveLength(1);
    const again = await buildSite();
    expect(again.api_recipes).toEqual({ apis: 2, unpacked: 0 });

    const file = operationsFilePath(path.join(s.catalogDir, 'apis'), 'courier_api');
    const recipes = parseOperationsFile(await fsp.readFile(file)) as OperationsFile;
    const changed = { ...recipes, operations: recipes.operations.slice(1) };
    await fsp.writeFile(file, operationsFileContent(changed));
    expect((await buildSite()).api_recipes).toEqual({ apis: 2, unpacked: 1 });
    expect(JSON.parse(await unzip(path.join(services(), 'courier_api', 'operations.json.gz'))).total).toBe(
      recipes.operations.length - 1,
    );
    // The previous build (kept) still links the old entry: both stay. One build later only the new one is used.
    expect((await fsp.readdir(store)).filter((e) => e.startsWith('courier_api-'))).toHaveLength(2);
    await buildSite();
    expect(await pruneRecipeStore(s.distDir, buildsDirOf(s.distDir), 0)).toBe(1);
    const left = (await fsp.readdir(store)).filter((e) => e.startsWith('courier_api-'));
    expect(left).toHaveLength(1);
    expect(left).not.toEqual(before);
    // The served build is intact.
    expect(existsSync(path.join(services(), 'courier_api', 'operations', `${changed.operations[0]?.id}.json.gz`))).toBe(
      true,
    );
  });
});
