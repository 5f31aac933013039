// How clients and registries find the MCP endpoint: the server cards (SEP-1649 and SEP-2127 drafts), the
// mcp block of the agent documents, and server.json for the official MCP registry.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_DESCRIPTION, REGISTRY_NAME } from '../../api/mcp/server-card.ts';
import { SERVER_INFO } from '../../api/mcp/server.ts';
import { MCP_TOOL_NAMES } from '../../build/discovery/agent-document.ts';
import { createAjv } from '../../build/model/validate-contract.ts';
import { buildToolsSite } from '../helpers/redis.ts';
import { BASE_URL, startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The parts of https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json a remote-only
// entry uses (the test runs offline, so the constraints are restated here).
const SERVER_JSON_SCHEMA = {
  type: 'object',
  required: ['$schema', 'name', 'description', 'version', 'remotes'],
  additionalProperties: false,
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: { type: 'string', maxLength: 255, not: { pattern: '^[\\^~<>=]|\\.[x*]|^latest$' } },
    remotes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['type', 'url'],
        additionalProperties: false,
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^https?://[^\\s]+$' },
          variables: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              properties: {
                description: { type: 'string' },
                isRequired: { type: 'boolean' },
                isSecret: { type: 'boolean' },
                default: { type: 'string' },
                placeholder: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
};

describe('MCP discovery', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.cleanup());

  it('the SEP-1649 server card names the endpoint, transport, capabilities and every tool with its input schema', async () => {
    const res = await s.json('/.well-known/mcp/server-card.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const card = res.body;
    expect(card).toMatchObject({
      $schema: expect.stringMatching(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\//),
      version: '1.0',
      protocolVersion: LATEST_PROTOCOL_VERSION,
      serverInfo: { name: 'tool-contract-catalog', title: 'Tool Contract Catalog', version: '1.0.0' },
      transport: { type: 'streamable-http', url: `${BASE_URL}/mcp` },
      capabilities: { tools: {}, resources: {} },
    });
    expect(card.supportedProtocolVersions).toContain('2025-06-18');
    expect(card.tools.map((t: { name: string }) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    const listed = await s.fetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const { tools } = (await listed.json()).result;
    for (const [i, t] of card.tools.entries()) {
      expect(t.description).toBe(tools[i].description);
      expect(t.inputSchema).toEqual(tools[i].inputSchema);
    }
    expect((await s.json('/.well-known/mcp/server-card')).body).toEqual(card);
  });

  it('the SEP-2127 card at <endpoint>/server-card carries the registry identity and the remote', async () => {
    const { status, body } = await s.json('/mcp/server-card');
    expect(status).toBe(200);
    expect(body).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
      name: REGISTRY_NAME,
      version: SERVER_INFO.version,
      description: REGISTRY_DESCRIPTION,
      title: SERVER_INFO.title,
      websiteUrl: `${BASE_URL}/`,
      remotes: [
        {
          type: 'streamable-http',
          url: `${BASE_URL}/mcp`,
          supportedProtocolVersions: expect.arrayContaining([LATEST_PROTOCOL_VERSION]),
        },
      ],
    });
  });

  let built: Promise<void> | undefined;
  it.each(['/.well-known/mcp.json', '/agent.json'])(
    '%s names the MCP endpoint, transport, tools and card; the static build writes the same block',
    async (p) => {
      const { body } = await s.json(p);
      expect(body.mcp).toEqual({
        endpoint: `${BASE_URL}/mcp`,
        transport: 'streamable-http',
        tools: [...MCP_TOOL_NAMES],
        server_card: `${BASE_URL}/.well-known/mcp/server-card.json`,
      });
      // The file the static build wrote (what a CDN serves) carries the same block.
      built ??= buildToolsSite(s.catalogDir, s.distDir);
      await built;
      expect(JSON.parse(await fsp.readFile(path.join(s.distDir, p.slice(1)), 'utf8')).mcp).toEqual(body.mcp);
      expect(body.endpoints).toContainEqual(expect.objectContaining({ method: 'POST', path: '/mcp' }));
    },
  );

  it('the OpenAPI document lists /mcp and the server cards', async () => {
    const { body } = await s.json('/openapi.json');
    expect(Object.keys(body.paths['/mcp'])).toEqual(['post']);
    for (const p of ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card', '/mcp/server-card'])
      expect(body.paths[p]?.get).toBeDefined();
  });
});

describe('server.json (official MCP registry entry)', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the assertions read JSON fields freely
  let entry: Record<string, any>;
  beforeAll(async () => {
    entry = JSON.parse(await fsp.readFile(path.join(ROOT, 'server.json'), 'utf8'));
  });

  it('is well-formed against the 2025-12-11 server.json constraints', () => {
    const check = createAjv().compile(SERVER_JSON_SCHEMA);
    expect(check(entry) ? [] : check.errors).toEqual([]);
  });

  it('matches the server: registry name, description, title, version, and a streamable-http remote at /mcp', () => {
    expect(entry).toMatchObject({
      name: REGISTRY_NAME,
      description: REGISTRY_DESCRIPTION,
      title: SERVER_INFO.title,
      version: SERVER_INFO.version,
    });
    const [remote] = entry.remotes;
    expect(remote.type).toBe('streamable-http');
    // Every {variable} of the URL is declared, and filling in this instance's host gives its endpoint.
    const names = [...remote.url.matchAll(/\{(\w+)\}/g)].map((m: RegExpMatchArray) => m[1] ?? '');
    for (const n of names) expect(remote.variables?.[n], n).toBeDefined();
    expect(remote.url.replace('{host}', new URL(BASE_URL).host)).toBe(`${BASE_URL}/mcp`);
  });
});
