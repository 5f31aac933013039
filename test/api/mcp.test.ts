// The MCP endpoint driven by the SDK's own Client over StreamableHTTPClientTransport against the real server:
// initialize, tools, the tax gate through get_tool, report_outcome (checked through the REST API), resources,
// and MCP-style errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../build/discovery/agent-document.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { servedAction } from '../../build/model/views.ts';
import { BASE_URL, fixtureTools, startTestServer, type TestServer } from '../helpers/server.ts';

const payload = { execution_feedback: 200, trend_keyword: 'fetch json api' };
// biome-ignore lint/suspicious/noExplicitAny: the assertions read JSON fields freely
type Json = any;

describe('MCP endpoint (SDK client, Streamable HTTP)', () => {
  let s: TestServer;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let axios: ToolContract;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const data = (r: CallToolResult) => r.structuredContent as Json;
  const restTelemetry = async (aid: string) => (await s.json(`/api/v1/tools/${aid}`)).body.trust.telemetry;

  beforeAll(async () => {
    axios = (await fixtureTools()).get('npm-axios-v1') as ToolContract;
    s = await startTestServer();
    client = new Client({ name: 'catalog-test', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`));
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await s.cleanup();
  });

  it('initializes: latest protocol version, server info, tools and resources capabilities, instructions', async () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({
      name: 'tool-contract-catalog',
      title: 'Tool Contract Catalog',
      version: '1.0.0',
    });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toMatch(/search_tools.*get_tool.*report_outcome/s);
    // An agent that says what it holds gets tools it can hand its data to: the instructions and the tool say how.
    expect(client.getInstructions()).toMatch(/inputs and formats/);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'search_tools')?.description).toMatch(/Say what you hold \(inputs:/);
  });

  it('answers ping', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });

  it('lists every tool, each with an input schema, an object output schema, a description and hints', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description?.length).toBeGreaterThan(40);
      expect(t.annotations?.destructiveHint).toBe(false);
    }
    expect(tools.find((t) => t.name === 'get_tool')?.inputSchema.required).toEqual(['aid']);
  });

  it('search_tools ranks like GET /api/v1/tools and never shows the action block', async () => {
    const r = await call('search_tools', { query: 'http client', category: 'npm' });
    expect(r.isError).toBeFalsy();
    const rest = (await s.json('/api/v1/tools?q=http%20client&category=npm')).body;
    expect(data(r)).toEqual(rest);
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(data(r));
    for (const item of data(r).results) expect(item.action).toBeUndefined();
    const top3 = await call('search_tools', { query: '', limit: 3 });
    expect(data(top3).results.map((t: Json) => t.identity.aid)).toEqual(
      (await s.json('/api/v1/tools')).body.results.slice(0, 3).map((t: Json) => t.identity.aid),
    );
  });

  it('get_tool without a payload: the partial contract (action withheld), counted as a lookup', async () => {
    const before = await s.running.ctx.telemetry.counters('npm-axios-v1');
    const r = await call('get_tool', { aid: 'npm-axios-v1' });
    expect(r.isError).toBeFalsy();
    expect(data(r).action).toBeNull();
    expect(data(r).tax_required.fields.trend_keyword).toEqual(expect.any(String));
    expect(data(r).registry.mcp).toBe(`${BASE_URL}/mcp`);
    const after = await s.running.ctx.telemetry.counters('npm-axios-v1');
    expect(after.lookups).toBe(before.lookups + 1);
    expect(after.requests).toBe(before.requests);
  });

  it('get_tool with a valid tax payload: the full contract with action, the report recorded', async () => {
    const before = await restTelemetry('npm-axios-v1');
    const r = await call('get_tool', { aid: 'npm-axios-v1', ...payload, validation_vote: 'yes' });
    expect(r.isError).toBeFalsy();
    expect(data(r).action).toEqual(servedAction(axios.action));
    expect(data(r).tax_received).toBe(true);
    expect(data(r).tax_required).toBeUndefined();
    expect(data(r).trust.telemetry.requests).toBe(before.requests + 1);
    expect((await restTelemetry('npm-axios-v1')).votes.yes).toBe(before.votes.yes + 1);
  });

  it('report_outcome records telemetry only: counters change, visible through the REST API', async () => {
    const before = await restTelemetry('pypi-requests-v1');
    const r = await call('report_outcome', {
      aid: 'pypi-requests-v1',
      execution_feedback: 500,
      trend_keyword: 'download a file',
      validation_vote: 'no',
    });
    expect(r.isError).toBeFalsy();
    const after = await restTelemetry('pypi-requests-v1');
    expect(after.requests).toBe(before.requests + 1);
    expect(after.votes.no).toBe(before.votes.no + 1);
    expect(data(r)).toEqual({ aid: 'pypi-requests-v1', recorded: true, telemetry: after });
    expect(JSON.stringify(data(r))).not.toContain('install_cmd');
  });

  it('get_trending, search_apis and get_api_manifest answer what their REST twins answer', async () => {
    expect(data(await call('get_trending', { limit: 4 }))).toEqual(
      (await s.json('/api/v1/tools/trending?limit=4')).body,
    );
    expect(data(await call('search_apis', { query: 'send transactional email' }))).toEqual(
      (await s.json('/api/v1/services/search?q=send%20transactional%20email')).body,
    );
    expect(data(await call('get_api_manifest', { service_name: 'sendgrid' }))).toEqual(
      (await s.json('/api/v1/services/sendgrid/mai-api.json')).body,
    );
  });

  describe('domain errors are tool results with isError', () => {
    it.each([
      ['an unknown aid', 'get_tool', { aid: 'npm-nope-v1' }, /Tool 'npm-nope-v1' not found/],
      ['an unknown aid on report_outcome', 'report_outcome', { aid: 'npm-nope-v1', ...payload }, /not found/],
      ['a malformed aid', 'get_tool', { aid: '../etc/passwd' }, /aid: must match pattern/],
      ['an unknown API', 'get_api_manifest', { service_name: 'unverified-mailer' }, /No compiled manifest/],
      [
        'a one-word trend_keyword (the REST wording)',
        'get_tool',
        { aid: 'npm-axios-v1', execution_feedback: 200, trend_keyword: 'json' },
        /trend_keyword: Value error, trend_keyword must be two or more words/,
      ],
      [
        'a payload missing execution_feedback',
        'get_tool',
        { aid: 'npm-axios-v1', trend_keyword: 'fetch json api' },
        /execution_feedback: Field required/,
      ],
      [
        'an out-of-range status',
        'report_outcome',
        { aid: 'npm-axios-v1', execution_feedback: 999, trend_keyword: 'fetch json api' },
        /less than or equal to 599/,
      ],
      [
        'a bad vote',
        'report_outcome',
        { aid: 'npm-axios-v1', ...payload, validation_vote: 'maybe' },
        /validation_vote/,
      ],
      ['a limit over 10', 'search_tools', { query: 'x', limit: 11 }, /limit: must be <= 10/],
      ['an unknown argument', 'search_tools', { query: 'x', q: 'y' }, /q: unknown argument/],
      ['a missing required argument', 'search_apis', {}, /query: required/],
    ])('%s', async (_label, name, args, message) => {
      const before = await restTelemetry('npm-axios-v1');
      const r = await call(name, args);
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect((r.content[0] as { text: string }).text).toMatch(message);
      expect((await restTelemetry('npm-axios-v1')).requests).toBe(before.requests);
    });
  });

  it('an unknown tool is a JSON-RPC error (-32602), not a tool result', async () => {
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  describe('resources', () => {
    it('lists contracts (most reliable first) and manifests, with templates for any aid or service', async () => {
      const { resources, nextCursor } = await client.listResources();
      expect(nextCursor).toBeUndefined();
      const uris = resources.map((r) => r.uri);
      expect(uris).toContain('catalog://tools/npm-axios-v1');
      expect(uris).toContain('catalog://apis/sendgrid');
      expect(uris).not.toContain('catalog://apis/unverified-mailer');
      expect(resources.every((r) => r.mimeType === 'application/json')).toBe(true);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'catalog://tools/{aid}',
        'catalog://apis/{service_name}',
      ]);
    });

    it('reads a contract in its partial form (what GET /api/v1/tools/{aid} answers) and a manifest', async () => {
      const { contents } = await client.readResource({ uri: 'catalog://tools/npm-axios-v1' });
      expect(contents[0]).toMatchObject({ uri: 'catalog://tools/npm-axios-v1', mimeType: 'application/json' });
      const contract = JSON.parse((contents[0] as { text: string }).text);
      expect(contract.action).toBeNull();
      expect(contract.identity).toEqual(axios.identity);
      const manifest = await client.readResource({ uri: 'catalog://apis/sendgrid' });
      expect(JSON.parse((manifest.contents[0] as { text: string }).text)).toEqual(
        (await s.json('/api/v1/services/sendgrid/mai-api.json')).body,
      );
    });

    it.each([
      'catalog://tools/npm-nope-v1',
      'catalog://tools/../x',
      'catalog://apis/unverified-mailer',
      'file:///etc/passwd',
    ])('an unknown URI (%s) is -32002 Resource not found', async (uri) => {
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    });

    it('a cursor that is not one of ours is -32602', async () => {
      await expect(client.listResources({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: -32602 });
    });
  });

  it.each(['2025-06-18', '2025-03-26', '2024-11-05'])(
    'an older client protocol version (%s) is accepted as offered',
    async (version) => {
      const res = await s.fetch('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
        }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).result.protocolVersion).toBe(version);
    },
  );
});
