// The MCP endpoint at the HTTP and JSON-RPC level: the REST body limit (413), malformed messages as JSON-RPC
// protocol errors (never a 500), 405 for GET and DELETE of a stateless server, and the tax gate's rate limit
// shared with the REST API.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIMIT = 64 * 1024;

interface RpcReply {
  status: number;
  headers: Headers;
  body: { jsonrpc: string; id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe('MCP over HTTP: limits and protocol errors', () => {
  let s: TestServer;
  const post = async (body: string, headers: Record<string, string> = HEADERS): Promise<RpcReply> => {
    const res = await s.fetch('/mcp', { method: 'POST', headers, body });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const rpc = (method: string, params?: unknown) =>
    post(JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) }));

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.cleanup());

  it('a body over 64 KB is a 413 with a JSON-RPC error, declared or streamed; just under passes', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'a'.repeat(LIMIT) } });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/65536 bytes/) },
      id: null,
    });
    const chunk = 'a'.repeat(16 * 1024);
    const streamed = await rawRequest(s.url, 'POST', '/mcp', {
      headers: { ...HEADERS, 'transfer-encoding': 'chunked' },
      chunks: ['{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"', chunk, chunk, chunk, chunk, chunk, '"}}'],
    });
    expect(streamed.status).toBe(413);
    const under = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'a'.repeat(LIMIT - 100) } } }),
    );
    expect(under.status).toBe(200);
    expect((await rpc('ping')).body.result).toEqual({});
  });

  it.each([
    ['malformed JSON', '{"jsonrpc":', 400, -32700],
    ['JSON that is not JSON-RPC', '{"hello":"world"}', 400, -32700],
  ])('%s is a JSON-RPC parse error', async (_label, body, status, code) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code }, id: null });
  });

  it.each([
    ['an unknown method', 'tools/destroy', undefined, -32601],
    ['tools/call without params', 'tools/call', undefined, -32602],
    ['tools/call with array arguments', 'tools/call', { name: 'get_tool', arguments: [1] }, -32602],
    ['tools/call of an unknown tool', 'tools/call', { name: 'nope', arguments: {} }, -32602],
    ['resources/read without a uri', 'resources/read', {}, -32602],
    ['resources/list with a numeric cursor', 'resources/list', { cursor: 5 }, -32602],
  ])('%s is a JSON-RPC error answered with 200', async (_label, method, params, code) => {
    const res = await rpc(method, params);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code } });
  });

  it('a batch answers each message; a notification alone is 202', async () => {
    const batch = await s.fetch('/mcp', {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]),
    });
    const replies = await batch.json();
    expect(replies.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    const note = await s.fetch('/mcp', {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(note.status).toBe(202);
  });

  it('transport rules: Accept must list JSON and SSE (406), JSON only (415), a known MCP-Protocol-Version (400)', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await post(ping, { 'content-type': 'application/json' })).status).toBe(406);
    expect((await post(ping, { ...HEADERS, 'content-type': 'text/plain' })).status).toBe(415);
    const old = await post(ping, { ...HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(old.status).toBe(400);
    expect(old.body.error?.message).toMatch(/Unsupported protocol version/);
  });

  it.each(['GET', 'DELETE'])(
    '%s /mcp is 405 with Allow: a stateless server has no SSE stream and no session',
    async (method) => {
      const res = await s.fetch('/mcp', { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('POST');
      expect(res.headers.get('allow')).not.toContain('GET');
      await res.arrayBuffer();
    },
  );
});

describe('MCP tax payloads spend the REST per-client, per-tool rate limit', () => {
  let s: TestServer;
  let client: Client;
  const payload = { execution_feedback: 200, trend_keyword: 'fetch json api' };
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    s = await startTestServer({ telemetryRatePerMin: 2 });
    client = new Client({ name: 'rate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await s.cleanup();
  });

  it('two paid lookups pass, the third is an isError result; the REST POST for the same tool is then 429', async () => {
    expect((await call('get_tool', { aid: 'npm-axios-v1', ...payload })).isError).toBeFalsy();
    expect((await call('report_outcome', { aid: 'npm-axios-v1', ...payload })).isError).toBeFalsy();
    const limited = await call('get_tool', { aid: 'npm-axios-v1', ...payload });
    expect(limited.isError).toBe(true);
    expect((limited.content[0] as { text: string }).text).toMatch(/Too many requests: retry after \d+ s/);
    expect((await s.post('/api/v1/tools/npm-axios-v1', payload)).status).toBe(429);
    // Other tools have their own bucket; plain lookups are never limited, as GET is not.
    expect((await call('get_tool', { aid: 'pypi-requests-v1', ...payload })).isError).toBeFalsy();
    expect((await call('get_tool', { aid: 'npm-axios-v1' })).isError).toBeFalsy();
    expect((await s.running.ctx.telemetry.counters('npm-axios-v1')).requests).toBe(2);
  });
});
