// The MCP subregistry against a real server on loopback: every answer is validated against the official
// MCP registry's own OpenAPI document (test/fixtures/mcp-registry/openapi.yaml, kept verbatim), pages walk
// every server exactly once, the filters do what the official API says, and bad input gets a clear 400.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { OFFICIAL_META_KEY, SUBREGISTRY_META_KEY } from '../../api/services/mcp-server-json.ts';
import { BASE_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { type AdminServer, startAdminServer } from './admin-helpers.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/mcp-servers');
const OFFICIAL_OPENAPI = path.resolve(import.meta.dirname, '../fixtures/mcp-registry/openapi.yaml');
const GENERATED = 45;

/** One answered entry: validated against the official schema first, then read field by field. */
// biome-ignore lint/suspicious/noExplicitAny: the shape is the official ServerResponse, checked by ajv on every answer
type Entry = { server: any; _meta: any };

/** Plain npm MCP servers, enough to need several pages; dated long before the fixtures. */
function generated(i: number): ToolContract {
  const n = String(i).padStart(2, '0');
  return {
    identity: {
      aid: `npm-gen-mcp-${n}-v1`,
      name: `gen-mcp-${n}`,
      version: `1.${i}.0`,
      task: `Generated MCP server number ${n}`,
      platform: 'npm',
      kind: 'mcp_server',
      license: 'MIT',
    },
    logic: {
      input_schema: { type: 'object' },
      output_schema: { type: 'json', target: 'stdout' },
      mcp: { transport: 'stdio', tools_read_at: new Date(Date.UTC(2026, 2, 1, 0, i)).toISOString(), tools: [] },
    },
    trust: { reliability_score: 0.8, latency_ms: null, status: 'active' },
    action: {
      source_url: `https://www.npmjs.com/package/gen-mcp-${n}`,
      install_cmd: `npm install gen-mcp-${n}`,
      execute_cmd: `npx gen-mcp-${n}`,
    },
  };
}

describe('MCP subregistry (GET /v0.1/servers …)', () => {
  let s: TestServer;
  let check: (schema: 'ServerList' | 'ServerResponse', value: unknown) => void;

  beforeAll(async () => {
    const fixtures: ToolContract[] = [];
    for (const f of await fsp.readdir(FIXTURES)) {
      if (f.endsWith('.json')) fixtures.push(JSON.parse(await fsp.readFile(path.join(FIXTURES, f), 'utf8')));
    }
    s = await startTestServer({
      apis: false,
      extraTools: [...fixtures, ...Array.from({ length: GENERATED }, (_, i) => generated(i))],
    });
    const official = parseYaml(await fsp.readFile(OFFICIAL_OPENAPI, 'utf8'));
    // The official document is OpenAPI 3.1 (JSON Schema 2020-12); `example` is an annotation ajv need not know.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://mcp-registry.test/openapi', components: official.components });
    check = (schema, value) => {
      const validate = ajv.getSchema(`https://mcp-registry.test/openapi#/components/schemas/${schema}`);
      if (!validate) throw new Error(`no schema ${schema} in the official document`);
      const ok = validate(value);
      expect(ok ? [] : validate.errors, `${schema}: ${JSON.stringify(value).slice(0, 300)}`).toEqual([]);
    };
  });
  afterAll(() => s?.cleanup());

  const list = async (query: string) => {
    const res = await s.json(`/v0.1/servers${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    check('ServerList', res.body);
    return res.body as { servers: Entry[]; metadata: { nextCursor?: string; count: number } };
  };
  const names = (body: { servers: Entry[] }) => body.servers.map((e) => `${e.server.name}@${e.server.version}`);

  it('answers the official ServerList shape, 30 per page by default, with CORS for browsers', async () => {
    const res = await s.fetch('/v0.1/servers', { headers: { origin: 'https://client.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    check('ServerList', body);
    expect(body.servers).toHaveLength(30);
    expect(body.metadata.count).toBe(30);
    expect(typeof body.metadata.nextCursor).toBe('string');
  });

  it('pagination walks every served server exactly once, in name order, every page valid', async () => {
    const all = await list('?limit=100');
    expect(all.metadata.nextCursor).toBeUndefined();
    // 45 generated + 7 fixtures (the dead one is hidden by default, the unverified one never served).
    expect(all.servers).toHaveLength(GENERATED + 7);
    const walked: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.metadata.count).toBe(page.servers.length);
      walked.push(...names(page));
      cursor = page.metadata.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil((GENERATED + 7) / 7));
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(names(all));
    const byName = all.servers.map((e) => e.server.name);
    expect(byName).toEqual([...byName].sort());
    // Regular tool contracts of the fixture catalog are not MCP servers.
    expect(byName.some((n) => n.includes('axios'))).toBe(false);
  });

  it('search is a case-insensitive substring of the name; version filters latest or one exact version', async () => {
    const fs = await list('?search=FileSystem');
    expect(names(fs)).toEqual(['io.modelcontextprotocol/filesystem@1.0.2', 'io.modelcontextprotocol/filesystem@0.6.2']);
    expect((await list('?search=no-such-server')).servers).toEqual([]);
    const latest = await list('?search=filesystem&version=latest');
    expect(names(latest)).toEqual(['io.modelcontextprotocol/filesystem@1.0.2']);
    const allLatest = await list('?version=latest&limit=100');
    expect(allLatest.servers).toHaveLength(GENERATED + 6);
    expect(allLatest.servers.every((e) => e._meta[OFFICIAL_META_KEY].isLatest)).toBe(true);
    expect(names(await list('?version=0.6.2'))).toEqual(['io.modelcontextprotocol/filesystem@0.6.2']);
  });

  it('updated_since keeps entries changed at or after the time, deleted ones included (a sync learns of removals)', async () => {
    const recent = await list('?updated_since=2026-11-22T00:00:00Z');
    expect(names(recent).sort()).toEqual([
      'com.npmjs.example/mcp-github@2.3.0',
      'com.npmjs/notes-mcp@1.1.0',
      'io.github.example-org/weather-mcp@0.4.1',
    ]);
    for (const e of recent.servers)
      expect(Date.parse(e._meta[OFFICIAL_META_KEY].updatedAt)).toBeGreaterThanOrEqual(Date.parse('2026-11-22'));
    const withDead = await list('?updated_since=2026-11-21T00:00:00%2B00:00');
    const dead = withDead.servers.find((e) => e.server.name === 'com.npmjs/old-mcp');
    expect(dead?._meta[OFFICIAL_META_KEY].status).toBe('deleted');
    expect((await list('?include_deleted=true&search=old-mcp')).servers).toHaveLength(1);
    expect((await list('?search=old-mcp')).servers).toHaveLength(0);
  });

  it('maps packages, remotes, arguments, environment variables and names as server.json does', async () => {
    const { servers } = await list('?limit=100');
    const by = (name: string) => servers.find((e) => e.server.name === name)?.server;
    const github = by('com.npmjs.example/mcp-github');
    expect(github.repository).toEqual({ url: 'https://github.com/example/mcp-github', source: 'github' });
    expect(github.packages).toEqual([
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: '@example/mcp-github',
        version: '2.3.0',
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: [
          { name: 'GITHUB_TOKEN', description: 'A GitHub personal access token', isRequired: true, isSecret: true },
          {
            name: 'GITHUB_API_URL',
            description: 'API base for GitHub Enterprise',
            isRequired: false,
            isSecret: false,
            placeholder: 'https://github.example.com/api/v3',
          },
        ],
      },
    ]);
    expect(github.remotes).toEqual([]);
    // Tasks longer than the official 100 characters are cut at a word.
    expect(github.description.length).toBeLessThanOrEqual(100);
    expect(github.description.endsWith('…')).toBe(true);
    const fetch = by('org.pypi/mcp-server-fetch');
    expect(fetch.packages[0]).toMatchObject({
      registryType: 'pypi',
      identifier: 'mcp_server_fetch',
      runtimeHint: 'uvx',
    });
    const weather = by('io.github.example-org/weather-mcp');
    expect(weather.version).toBe('0.4.1'); // no package version: what the server said in the handshake
    expect(weather.packages).toEqual([]);
    expect(weather.remotes).toEqual([{ type: 'streamable-http', url: 'https://weather.example.com/mcp' }]);
    const local = by('com.npmjs/local-http-mcp');
    expect(local.packages[0].transport).toEqual({ type: 'streamable-http', url: 'http://localhost:8808/mcp' });
    expect(local.packages[0].packageArguments).toEqual([
      { type: 'positional', value: '--port' },
      { type: 'positional', value: '8808' },
    ]);
    expect(local.remotes).toEqual([]);
    const fsServer = by('io.modelcontextprotocol/filesystem');
    expect(fsServer.packages[0].packageArguments).toEqual([{ type: 'positional', value: '/data' }]);
  });

  it('carries our evidence and tool list under our _meta key, beside the official status', async () => {
    const { servers } = await list('?limit=100');
    const entry = (name: string): Entry => {
      const found = servers.find((e) => e.server.name === name);
      if (!found) throw new Error(`no entry ${name}`);
      return found;
    };
    const fsMeta = entry('io.modelcontextprotocol/filesystem')._meta;
    expect(fsMeta[OFFICIAL_META_KEY]).toEqual({
      status: 'active',
      updatedAt: '2026-11-20T10:00:00.000Z',
      isLatest: true,
    });
    const ours = fsMeta[SUBREGISTRY_META_KEY];
    expect(ours).toMatchObject({
      aid: 'npm-modelcontextprotocol-server-filesystem-v1',
      contract: `${BASE_URL}/api/v1/tools/npm-modelcontextprotocol-server-filesystem-v1`,
      page: `${BASE_URL}/tools/npm-modelcontextprotocol-server-filesystem-v1/`,
      transport: 'stdio',
      tools_read_at: '2026-11-20T10:00:00Z',
      trust: { status: 'active', verification: { status: 'passed', level: 'runs', runtime: 'node 22.23' } },
    });
    expect(ours.tools.map((t: { name: string }) => t.name)).toEqual(['read_file', 'write_file']);
    for (const t of ours.tools) {
      expect(t.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(t.inputSchema.type).toBe('object');
    }
    const notes = entry('com.npmjs/notes-mcp')._meta;
    expect(notes[OFFICIAL_META_KEY].status).toBe('active');
    expect(notes[OFFICIAL_META_KEY].statusMessage).toMatch(/review/i);
    expect(notes[SUBREGISTRY_META_KEY].trust.status).toBe('review');
    expect(notes[SUBREGISTRY_META_KEY].tools[0].flags[0]).toMatch(/id_rsa/);
    expect(notes[SUBREGISTRY_META_KEY].tool_changes[0].changed[0].name).toBe('add_note');
    const [old] = (await list('?version=0.6.2')).servers;
    expect(old?._meta[OFFICIAL_META_KEY]).toMatchObject({ status: 'deprecated', isLatest: false });
    // No dated event, no updatedAt (never a made-up date).
    expect(entry('org.pypi/mcp-server-fetch')._meta[OFFICIAL_META_KEY].updatedAt).toBeUndefined();
  });

  it('versions of one server (URL-encoded name), newest first; one version, latest or exact; 404s', async () => {
    const versions = await s.json('/v0.1/servers/io.modelcontextprotocol%2Ffilesystem/versions');
    expect(versions.status).toBe(200);
    check('ServerList', versions.body);
    expect(names(versions.body)).toEqual([
      'io.modelcontextprotocol/filesystem@1.0.2',
      'io.modelcontextprotocol/filesystem@0.6.2',
    ]);
    const latest = await s.json('/v0.1/servers/io.modelcontextprotocol%2Ffilesystem/versions/latest');
    expect(latest.status).toBe(200);
    check('ServerResponse', latest.body);
    expect(latest.body.server.version).toBe('1.0.2');
    const exact = await s.json('/v0.1/servers/io.modelcontextprotocol%2ffilesystem/versions/0.6.2');
    expect(exact.status).toBe(200);
    check('ServerResponse', exact.body);
    expect(exact.body.server.version).toBe('0.6.2');
    for (const p of [
      '/v0.1/servers/io.modelcontextprotocol%2Ffilesystem/versions/9.9.9',
      '/v0.1/servers/io.example%2Fnothing/versions',
      '/v0.1/servers/io.example%2Fnothing/versions/latest',
      '/v0.1/servers/io.modelcontextprotocol/filesystem/versions',
      '/v0.1/servers/com.npmjs%2Fold-mcp/versions', // deleted: only with include_deleted
      '/v0.1/servers/com.npmjs%2Funverified-mcp/versions',
      '/v0.1/nothing',
    ]) {
      const res = await s.json(p);
      expect(res.status, p).toBe(404);
      expect(typeof res.body.detail, p).toBe('string');
    }
    const dead = await s.json('/v0.1/servers/com.npmjs%2Fold-mcp/versions?include_deleted=true');
    expect(dead.status).toBe(200);
    check('ServerList', dead.body);
  });

  it('our own /openapi.json documents the three paths, and live answers match its schemas too', async () => {
    const doc = (await s.json('/openapi.json')).body;
    for (const p of [
      '/v0.1/servers',
      '/v0.1/servers/{serverName}/versions',
      '/v0.1/servers/{serverName}/versions/{version}',
    ])
      expect(doc.paths[p]?.get, p).toBeDefined();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://catalog.test/openapi', components: doc.components });
    const validate = ajv.getSchema('https://catalog.test/openapi#/components/schemas/RegistryServerList');
    const body = (await s.json('/v0.1/servers?limit=100&include_deleted=true')).body;
    expect(validate?.(body) ? [] : validate?.errors).toEqual([]);
  });

  it('bad cursor, limit, version, updated_since or include_deleted: 400 with a detail that says what to send', async () => {
    const cases: [string, RegExp][] = [
      ['limit=0', /limit/],
      ['limit=101', /limit/],
      ['limit=ten', /limit/],
      ['limit=-1', /limit/],
      ['cursor=%21%21', /cursor/],
      [`cursor=${Buffer.from('not json').toString('base64url')}`, /cursor/],
      [`cursor=${Buffer.from('{"a":1}').toString('base64url')}`, /cursor/],
      ['version=%5E1.2.3', /version/],
      ['version=1.x', /version/],
      ['version=', /version/],
      [`version=${'1'.repeat(300)}`, /version/],
      ['updated_since=yesterday', /updated_since/],
      ['updated_since=2026-13-45T00:00:00Z', /updated_since/],
      ['include_deleted=maybe', /include_deleted/],
      [`search=${'a'.repeat(201)}`, /search/],
    ];
    for (const [query, message] of cases) {
      const res = await s.json(`/v0.1/servers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toMatch(message);
    }
    const res = await s.json('/v0.1/servers/io.modelcontextprotocol%2Ffilesystem/versions?include_deleted=perhaps');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.stringMatching(/include_deleted/) });
    expect((await s.fetch('/v0.1/servers', { method: 'POST' })).status).toBe(405);
  });
});

describe('MCP subregistry pages while the catalog changes', () => {
  let s: AdminServer;
  beforeAll(async () => {
    s = await startAdminServer({ apis: false, extraTools: Array.from({ length: 20 }, (_, i) => generated(i)) });
  });
  afterAll(() => s?.cleanup());

  it('a walk with nextCursor never repeats or skips an entry when writes land between pages', async () => {
    const first = await s.json('/v0.1/servers?limit=5');
    const seen: string[] = first.body.servers.map((e: { server: { name: string } }) => e.server.name);
    // A server sorting before the cursor, one after it, and a new version of one already seen.
    const before = {
      ...generated(90),
      identity: { ...generated(90).identity, aid: 'npm-aaa-new-v1', name: 'aaa-new' },
    };
    const after = { ...generated(91), identity: { ...generated(91).identity, aid: 'npm-zzz-new-v1', name: 'zzz-new' } };
    const changed = generated(0);
    changed.logic.mcp = {
      ...(changed.logic.mcp as NonNullable<ToolContract['logic']['mcp']>),
      tools_read_at: '2026-11-25T00:00:00Z',
    };
    for (const c of [before, after, changed]) expect((await s.admin('POST', '/api/v1/ingest', c)).status).toBe(200);
    let cursor: string | undefined = first.body.metadata.nextCursor;
    while (cursor) {
      const page = await s.json(`/v0.1/servers?limit=5&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.servers.map((e: { server: { name: string } }) => e.server.name));
      cursor = page.body.metadata.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain('com.npmjs/zzz-new'); // after the cursor: reached
    expect(seen).not.toContain('com.npmjs/aaa-new'); // before it: a later sync finds it with updated_since
    expect(seen.filter((n) => n.startsWith('com.npmjs/gen-mcp-'))).toHaveLength(20);
    // The write is visible at once, and updated_since finds the changed entry.
    const recent = await s.json('/v0.1/servers?updated_since=2026-11-24T00:00:00Z');
    expect(recent.body.servers.map((e: { server: { name: string } }) => e.server.name)).toEqual([
      'com.npmjs/gen-mcp-00',
    ]);
    expect((await s.json('/v0.1/servers?search=aaa-new')).body.metadata.count).toBe(1);
  });
});
