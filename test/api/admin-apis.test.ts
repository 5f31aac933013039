// POST /admin/apis/compile and /admin/apis/ingest against a real server: definitions fetched from a fake
// definition host on loopback (safe-fetch rules, allow-list), posted definitions, ready manifest files,
// the live services search and static site following, and the review of base_url/auth changes.
import { existsSync, promises as fsp } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEFINITION_HOSTS, definitionHosts } from '../../api/services/api-compile.ts';
import { gunzipSync } from 'node:zlib';
import { validateManifest } from '../../build/apis/manifest.ts';
import { operationsFilePath, parseOperationsFile, validateOperationsFile } from '../../build/apis/recipe-schema.ts';
import { sampleManifest, sampleRecipes } from '../helpers/api-manifests.ts';
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

/** An OpenAPI 3 definition of a small mail API; `patch` changes servers, security or adds paths. */
function definition(
  patch: { servers?: string[]; bearer?: boolean; extraPath?: boolean; provider?: string | null } = {},
) {
  const {
    servers = ['https://api.acmemail.io/v1'],
    bearer = true,
    extraPath = false,
    provider = 'acmemail.io',
  } = patch;
  return {
    openapi: '3.0.3',
    info: {
      title: 'Acme Mail API',
      version: '1.0.0',
      description: 'Send transactional email.',
      ...(provider ? { 'x-providerName': provider } : {}),
      'x-apisguru-categories': ['email'],
    },
    servers: servers.map((url) => ({ url })),
    components: {
      securitySchemes: bearer
        ? { token: { type: 'http', scheme: 'bearer' } }
        : { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    },
    security: [bearer ? { token: [] } : { key: [] }],
    paths: {
      '/messages': {
        get: { operationId: 'listMessages', responses: { 200: { description: 'The sent messages' } } },
        post: {
          operationId: 'sendMessage',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['to', 'subject'],
                  properties: { to: { type: 'string' }, subject: { type: 'string' } },
                },
              },
            },
          },
          responses: { 202: { description: 'The queued message' } },
        },
      },
      '/messages/{id}': {
        get: {
          operationId: 'getMessage',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'One message' } },
        },
      },
      ...(extraPath
        ? {
            '/templates': {
              get: { operationId: 'listTemplates', responses: { 200: { description: 'The templates' } } },
            },
          }
        : {}),
    },
  };
}

interface Fake {
  url: string;
  server: http.Server;
  hits: string[];
}

async function fakeDefinitionHost(): Promise<Fake> {
  const routes: Record<string, unknown> = {
    '/defs/acme.json': definition(),
    '/defs/acme-more.json': definition({ extraPath: true }),
    '/defs/acme-moved.json': definition({ servers: ['https://mail.acme-new.io/v2'] }),
    '/defs/hostonly.json': definition({ provider: null, servers: ['https://api.postbox.dev'] }),
    '/defs/not-openapi.json': { hello: 'world' },
  };
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    hits.push(url);
    if (url === '/defs/elsewhere.json') {
      res.writeHead(302, { location: 'http://example.org/defs/acme.json' });
      res.end();
      return;
    }
    if (url === '/defs/huge.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"x":"${'a'.repeat(5 * 1024 * 1024 + 10)}"}`);
      return;
    }
    const body = routes[url];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'Not Found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits };
}

describe('admin API manifest routes', () => {
  let up: Fake;
  let s: AdminServer;
  const compile = (body: unknown, headers?: Record<string, string>) =>
    s.admin('POST', '/admin/apis/compile', body, headers);
  const ingest = (body: unknown) => s.admin('POST', '/admin/apis/ingest', body);
  const fileOf = async (name: string) =>
    JSON.parse(await fsp.readFile(path.join(s.catalogDir, 'apis', `${name}.json`), 'utf8'));
  const served = async (name: string) => s.json(`/api/v1/services/${name}/mai-api.json`);

  beforeAll(async () => {
    up = await fakeDefinitionHost();
    Object.assign(process.env, {
      APIS_DEFINITION_HOSTS: new URL(up.url).host,
      ALLOW_PRIVATE_UPSTREAMS: '1',
      UPSTREAM_TIMEOUT_MS: '1500',
    });
    s = await startAdminServer({ apis: false, ip: '10.9.0.7' });
  });
  afterAll(async () => {
    await settled(s);
    await Promise.all([
      s.cleanup(),
      new Promise((r) => {
        up.server.closeAllConnections();
        up.server.close(r);
      }),
    ]);
  });

  it('allows api.apis.guru and raw.githubusercontent.com by default, APIS_DEFINITION_HOSTS otherwise', () => {
    expect(definitionHosts({})).toEqual(DEFAULT_DEFINITION_HOSTS);
    expect(DEFAULT_DEFINITION_HOSTS).toEqual(['api.apis.guru', 'raw.githubusercontent.com']);
    expect(definitionHosts({ APIS_DEFINITION_HOSTS: ' A.example , b.example:8443' })).toEqual([
      'a.example',
      'b.example:8443',
    ]);
  });

  it('needs the admin secret like every admin route', async () => {
    for (const p of ['/admin/apis/compile', '/admin/apis/ingest']) {
      expect((await s.post(p, { url: `${up.url}/defs/acme.json` }, { 'x-forwarded-for': '10.9.0.8' })).status).toBe(
        401,
      );
    }
    expect(existsSync(path.join(s.catalogDir, 'apis', 'acmemail_api.json'))).toBe(false);
  });

  it('compiles a definition from an allowed host, stores it, serves it and finds it at once; the static site follows', async () => {
    const r = await compile({ url: `${up.url}/defs/acme.json` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', service_name: 'acmemail_api', created: true });
    const m = r.body.manifest;
    expect(validateManifest(m)).toEqual([]);
    expect(m).toMatchObject({ category: 'email', source_url: `${up.url}/defs/acme.json`, record: { verified: true } });
    expect(m.manifest).toMatchObject({
      service: 'Acme Mail API',
      base_url: 'https://api.acmemail.io/v1',
      auth: { type: 'bearer', header: 'Authorization' },
    });
    expect(m.manifest.intents.map((i: { id: string }) => i.id).sort()).toEqual([
      'get_message',
      'list_messages',
      'send_message',
    ]);
    expect(await fileOf('acmemail_api')).toEqual(m);
    expect((await served('acmemail_api')).body).toEqual(m.manifest);
    const search = (await s.json('/api/v1/services/search?q=send+email+message')).body;
    expect(search.results.map((x: { service_name: string }) => x.service_name)).toContain('acmemail_api');
    await settled(s);
    expect(s.running.ctx.rebuild.status()).toMatchObject({ failures: 0 });
    expect(await fsp.readFile(path.join(s.distDir, 'api/v1/services/acmemail_api/mai-api.json'), 'utf8')).toBe(
      JSON.stringify(m.manifest),
    );
    // Its recipes were stored with it (catalog/apis/operations/, the normal write path) and are served...
    const recipes = parseOperationsFile(
      await fsp.readFile(operationsFilePath(path.join(s.catalogDir, 'apis'), 'acmemail_api')),
    );
    expect(validateOperationsFile(recipes)).toEqual([]);
    const ops = (await s.json('/api/v1/services/acmemail_api/operations')).body;
    expect(ops).toMatchObject({ service_name: 'acmemail_api', total: 3 });
    expect((await s.json('/api/v1/services/acmemail_api/operations/send_message')).body).toMatchObject({
      method: 'POST',
      path: '/messages',
      content_type: 'application/json',
      params: [
        { name: 'to', in: 'body', required: true },
        { name: 'subject', in: 'body', required: true },
      ],
    });
    // ...and the rebuilt site holds their static copies.
    const recipeFile = path.join(s.distDir, 'api/v1/services/acmemail_api/operations/send_message.json.gz');
    expect(JSON.parse(gunzipSync(await fsp.readFile(recipeFile)).toString())).toEqual(
      (await s.json('/api/v1/services/acmemail_api/operations/send_message')).body,
    );
    const page = await s.fetch('/llmo-apis');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/v1/services/acmemail_api/mai-api.json');
    expect(JSON.parse(await fsp.readFile(path.join(s.distDir, 'agent.json'), 'utf8')).apis_count).toBe(1);
  });

  it('replaces a manifest directly when base_url and auth stay the same', async () => {
    const r = await compile({ url: `${up.url}/defs/acme-more.json` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', service_name: 'acmemail_api', created: false });
    expect((await served('acmemail_api')).body.intents).toHaveLength(4);
    // The new recipes are served at once (no stale copy from before the write).
    expect((await s.json('/api/v1/services/acmemail_api/operations')).body.total).toBe(4);
    expect((await s.json('/api/v1/services/acmemail_api/operations/list_templates')).status).toBe(200);
  });

  it('never silently moves a verified base_url: the change is queued (202) and applied when accepted', async () => {
    const before = await fileOf('acmemail_api');
    const r = await compile({ url: `${up.url}/defs/acme-moved.json` });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      status: 'queued',
      service_name: 'acmemail_api',
      ticket: expect.any(String),
      changes: ['base_url: https://api.acmemail.io/v1 -> https://mail.acme-new.io/v2'],
    });
    expect(await fileOf('acmemail_api')).toEqual(before);
    expect((await served('acmemail_api')).body.base_url).toBe('https://api.acmemail.io/v1');
    const queue = (await s.admin('GET', '/admin/contributions')).body.contributions;
    const item = queue.find((c: { id: string }) => c.id === r.body.ticket);
    expect(item).toMatchObject({
      kind: 'api',
      aid: 'acmemail_api',
      field: null,
      manifest: { manifest: { base_url: 'https://mail.acme-new.io/v2' } },
    });
    expect(item.note).toContain('base_url: https://api.acmemail.io/v1 -> https://mail.acme-new.io/v2');
    // The recipes wait with it; the listing counts them instead of showing each.
    expect(item.operations_count).toBe(3);
    expect(item.manifest.operations).toBeUndefined();
    expect((await s.json('/api/v1/services/acmemail_api/operations')).body.total).toBe(4);
    const accepted = await s.admin('POST', `/admin/contributions/${r.body.ticket}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'ok', kind: 'api', aid: 'acmemail_api', created: false });
    expect((await fileOf('acmemail_api')).manifest.base_url).toBe('https://mail.acme-new.io/v2');
    expect((await served('acmemail_api')).body.base_url).toBe('https://mail.acme-new.io/v2');
    expect((await s.json('/api/v1/services/acmemail_api/operations')).body.total).toBe(3);
    expect((await s.admin('GET', '/admin/contributions')).body.count).toBe(0);
  });

  it('ingests a ready manifest file; an auth change of a verified one goes to review and can be rejected', async () => {
    const fresh = sampleManifest('postal_api', { category: 'email' });
    const r = await ingest(fresh);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', service_name: 'postal_api', created: true });
    expect(await fileOf('postal_api')).toEqual(fresh);
    expect((await served('postal_api')).body).toEqual(fresh.manifest);

    const rekeyed = sampleManifest('postal_api', { manifest: { auth: { type: 'apikey', query: 'key' } } });
    const q = await ingest(rekeyed);
    expect(q.status).toBe(202);
    expect(q.body.changes).toEqual(['auth: bearer header Authorization -> apikey query key']);
    expect((await served('postal_api')).body.auth).toEqual({ type: 'bearer', header: 'Authorization' });
    expect((await ingest(rekeyed)).status).toBe(409);
    expect((await s.admin('POST', `/admin/contributions/${q.body.ticket}/reject`)).status).toBe(200);
    expect(await fileOf('postal_api')).toEqual(fresh);

    // An unverified manifest is stored but not served, and nothing it replaces is protected.
    const draft = sampleManifest('draft_api', { record: { verified: false } });
    expect((await ingest(draft)).status).toBe(200);
    expect((await served('draft_api')).status).toBe(404);
  });

  it('ingests a manifest with its recipes (`operations`), stores both and serves the recipes at once', async () => {
    const m = sampleManifest('courier_api', { category: 'email' });
    const r = await ingest({ ...m, operations: sampleRecipes() });
    expect(r.status).toBe(200);
    expect(r.body.manifest).toEqual(m);
    expect(await fileOf('courier_api')).toEqual(m);
    const stored = parseOperationsFile(
      await fsp.readFile(operationsFilePath(path.join(s.catalogDir, 'apis'), 'courier_api')),
    );
    expect(stored).toEqual({ service_name: 'courier_api', operations: sampleRecipes() });
    expect((await s.json('/api/v1/services/courier_api/operations/get_message')).body).toEqual(sampleRecipes()[1]);
    // Without `operations` the stored recipes stay as they are.
    expect((await ingest(m)).status).toBe(200);
    expect((await s.json('/api/v1/services/courier_api/operations')).body.total).toBe(2);
  });

  it('refuses recipes that are invalid or miss an intent (422 under body.operations), storing neither file', async () => {
    const m = sampleManifest('parcel_api');
    const cases: [unknown, string][] = [
      [[sampleRecipes()[1]], 'body.operations'],
      [[{ ...sampleRecipes()[0], method: 'SEND' }], 'body.operations.0.method'],
      [[sampleRecipes()[0], sampleRecipes()[0]], 'body.operations.1.id'],
      ['none', 'body.operations'],
    ];
    for (const [operations, loc] of cases) {
      const r = await ingest({ ...m, operations });
      expect(r.status, loc).toBe(422);
      expect(
        r.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.')),
        loc,
      ).toContain(loc);
    }
    expect(existsSync(path.join(s.catalogDir, 'apis', 'parcel_api.json'))).toBe(false);
    expect(existsSync(operationsFilePath(path.join(s.catalogDir, 'apis'), 'parcel_api'))).toBe(false);
  });

  it('answers 422 naming each bad field of an ingested manifest, and stores nothing', async () => {
    const bad = sampleManifest('broken_api', {
      manifest: { base_url: 'ftp://files.example.org' },
    }) as unknown as Record<string, unknown>;
    bad.colour = 'blue';
    const r = await ingest(bad);
    expect(r.status).toBe(422);
    const locs = r.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.manifest.base_url', 'body.colour']));
    expect(existsSync(path.join(s.catalogDir, 'apis', 'broken_api.json'))).toBe(false);
    expect((await ingest(undefined)).status).toBe(422);
  });

  it('compiles a posted definition, naming the service after its host when the definition has no provider', async () => {
    const named = await compile({ definition: definition({ provider: null, servers: ['https://api.postbox.dev'] }) });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({
      service_name: 'postbox_api',
      manifest: { source_url: 'https://api.postbox.dev' },
    });
    const chosen = await compile({
      definition: definition({ bearer: false }),
      service_name: 'acme_keyed_api',
      source_url: 'https://example.org/acme.json',
    });
    expect(chosen.body).toMatchObject({
      status: 'ok',
      service_name: 'acme_keyed_api',
      manifest: {
        source_url: 'https://example.org/acme.json',
        manifest: { auth: { type: 'apikey', header: 'X-Api-Key' } },
      },
    });
    expect((await compile({ url: `${up.url}/defs/hostonly.json` })).body.service_name).toBe('postbox_api');
  });

  it('never fetches a reference the definition points at elsewhere', async () => {
    const d = definition({ servers: ['https://api.refs.dev'] }) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const get = d.paths['/messages']?.get;
    if (get) get.responses['200'] = { $ref: `${up.url}/defs/secret.json#/response` };
    const r = await compile({ definition: d, service_name: 'refs_api' });
    expect(r.status).toBe(200);
    expect(up.hits).not.toContain('/defs/secret.json');
  });

  it('refuses what cannot be fetched or compiled, with the status that says why', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{}, 422, /exactly one of url and definition/],
      [{ url: `${up.url}/defs/acme.json`, definition: definition() }, 422, /exactly one/],
      [{ url: 'https://evil.example.org/defs/acme.json' }, 422, /Unsupported URL/],
      [{ url: 'file:///etc/passwd' }, 422, /Unsupported URL/],
      [{ definition: { hello: 'world' } }, 422, /not an OpenAPI or Swagger definition/],
      [{ definition: definition(), service_name: 'Bad Name' }, 422, /pattern|match/],
      [{ url: `${up.url}/defs/nope.json` }, 404, /has no such entry/],
      [{ url: `${up.url}/defs/not-openapi.json` }, 502, /cannot be compiled: not an OpenAPI/],
      [{ url: `${up.url}/defs/elsewhere.json` }, 502, /redirected elsewhere/],
      [{ url: `${up.url}/defs/huge.json` }, 502, /more than 5 MB/],
    ];
    for (const [body, status, message] of cases) {
      const r = await compile(body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(JSON.stringify(r.body.detail)).toMatch(message);
    }
    const tooBig = await compile(`{"definition": {"x": "${'a'.repeat(5 * 1024 * 1024 + 20 * 1024)}"}}`);
    expect(tooBig.status).toBe(413);
  });
});
