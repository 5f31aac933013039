// POST /api/v1/translate with MCP servers: a server URL of the MCP registry (the official host, resolved against
// MCP_REGISTRY_URL, here a fake on loopback) and an npm package that is an MCP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateContract } from '../../build/model/validate-contract.ts';
import { type FakeJsonRegistry, startFakeJsonRegistry } from '../helpers/fake-json-registry.ts';
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

const server = {
  name: 'io.github.acme/files',
  description: 'Read and search files in a folder the user picks',
  version: '0.4.1',
  packages: [
    {
      registryType: 'npm',
      identifier: 'acme-files-mcp',
      version: '0.4.1',
      transport: { type: 'stdio' },
      packageArguments: [{ type: 'positional', value: '/data' }],
    },
  ],
};
const packument = {
  name: 'acme-files-mcp',
  'dist-tags': { latest: '0.4.1' },
  versions: {
    '0.4.1': {
      name: 'acme-files-mcp',
      version: '0.4.1',
      description: 'Files over MCP',
      license: 'MIT',
      bin: { 'acme-files-mcp': 'index.js' },
      mcpName: 'io.github.acme/files',
      engines: { node: '>=20' },
    },
  },
};

describe('POST /api/v1/translate: MCP servers', () => {
  let fake: FakeJsonRegistry;
  let s: AdminServer;
  const translate = (url: string) => s.admin('POST', '/api/v1/translate', { url });
  const env = ['MCP_REGISTRY_URL', 'NPM_REGISTRY_URL', 'NPM_DOWNLOADS_URL', 'ALLOW_PRIVATE_UPSTREAMS'] as const;
  const saved = Object.fromEntries(env.map((k) => [k, process.env[k]]));

  beforeAll(async () => {
    fake = await startFakeJsonRegistry();
    fake.set(`/v0.1/servers/${encodeURIComponent(server.name)}/versions/latest`, { server, _meta: {} });
    fake.set(`/v0.1/servers/${encodeURIComponent(server.name)}/versions/0.4.1`, { server, _meta: {} });
    fake.set('/acme-files-mcp', packument);
    Object.assign(process.env, {
      MCP_REGISTRY_URL: fake.url,
      NPM_REGISTRY_URL: fake.url,
      NPM_DOWNLOADS_URL: fake.url,
      ALLOW_PRIVATE_UPSTREAMS: '1',
    });
    s = await startAdminServer({ apis: false, ip: '10.9.0.17' });
  });
  afterAll(async () => {
    await settled(s);
    for (const k of env) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await Promise.all([s.cleanup(), fake.close()]);
  });

  it('translates a registry server URL (official host, encoded name) into an mcp_server contract', async () => {
    const r = await translate(
      'https://registry.modelcontextprotocol.io/v0.1/servers/io.github.acme%2Ffiles/versions/latest',
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ aid: 'npm-acme-files-mcp-v1', created: true, source: 'mcp-registry' });
    const c = r.body.contract;
    expect(validateContract(c)).toEqual([]);
    expect(c.identity).toMatchObject({ kind: 'mcp_server', platform: 'npm', version: '0.4.1', license: 'MIT' });
    expect(c.action).toMatchObject({
      install_cmd: 'npm install acme-files-mcp@0.4.1',
      execute_cmd: 'npx acme-files-mcp /data',
      requires: { runtime: { node: '>=20' } },
    });
    expect(c.logic.mcp).toEqual({
      transport: 'stdio',
      registry_name: 'io.github.acme/files',
      arguments: ['/data'],
      tools_read_at: null,
      tools: [],
    });
    expect((await s.json('/api/v1/tools/npm-acme-files-mcp-v1')).status).toBe(200);
  });

  it('accepts the configured registry host, the name as two segments, a pinned version and /v0 paths', async () => {
    for (const url of [
      `${fake.url}/v0.1/servers/io.github.acme/files/versions/0.4.1`,
      `${fake.url}/v0/servers/io.github.acme%2Ffiles`,
    ]) {
      const r = await translate(url);
      expect([url, r.status, r.body.aid]).toEqual([url, 200, 'npm-acme-files-mcp-v1']);
    }
    expect(fake.hits(`/v0.1/servers/${encodeURIComponent(server.name)}/versions/0.4.1`)).toHaveLength(1);
  });

  it('translates an npm package that is an MCP server (mcpName) into an mcp_server contract', async () => {
    const r = await translate('https://www.npmjs.com/package/acme-files-mcp');
    expect(r.status).toBe(200);
    expect(r.body.contract.identity.kind).toBe('mcp_server');
    expect(r.body.contract.logic.mcp).toMatchObject({ transport: 'stdio', registry_name: 'io.github.acme/files' });
  });

  it('answers 404 naming the registry for an unknown server and 422 for a malformed registry URL', async () => {
    const missing = await translate('https://registry.modelcontextprotocol.io/v0.1/servers/io.github.acme%2Fnope');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/^MCP registry \(127\.0\.0\.1:\d+\) has no such entry/);
    const bad = await translate('https://registry.modelcontextprotocol.io/v0.1/servers/not-a-name/versions/latest');
    expect(bad.status).toBe(422);
  });
});
