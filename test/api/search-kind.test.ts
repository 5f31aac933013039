// GET /api/v1/tools?kind= and MCP search_tools {kind}: an agent that needs a command to run asks for tools,
// a client that wants a server asks for MCP servers; absent, both are ranked together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { mcpToolCall, startTestServer, type TestServer } from '../helpers/server.ts';
import { mcpContract } from '../helpers/tool-contract.ts';

// An MCP server whose words match "send email" as well as the fixture's email libraries do.
const server: ToolContract = (() => {
  const c = mcpContract('mail-mcp');
  c.identity.task = 'Send email from an agent: an MCP server with a send_email tool';
  c.identity.tags = ['email', 'send', 'mcp-server'];
  c.trust.reliability_score = 0.99;
  c.record = { verified: true };
  return c;
})();

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ extraTools: [server] });
}, 120_000);
afterAll(() => t?.cleanup());

const aids = (body: { results: { identity: { aid: string } }[] }) => body.results.map((r) => r.identity.aid);

describe('search by kind', () => {
  it('without kind both are ranked; kind=tool leaves servers out; kind=mcp_server keeps only them', async () => {
    const all = await t.json('/api/v1/tools?q=send%20email');
    expect(aids(all.body)).toContain('npm-mail-mcp-v1');
    const tools = await t.json('/api/v1/tools?q=send%20email&kind=tool');
    expect(tools.status).toBe(200);
    expect(tools.body.kind).toBe('tool');
    expect(aids(tools.body)).not.toContain('npm-mail-mcp-v1');
    expect(aids(tools.body).length).toBeGreaterThan(0);
    const servers = await t.json('/api/v1/tools?q=send%20email&kind=mcp_server');
    expect(aids(servers.body)).toEqual(['npm-mail-mcp-v1']);
  });

  it('an unknown kind is a 422 naming the parameter', async () => {
    const res = await t.json('/api/v1/tools?q=email&kind=plugin');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('kind');
  });

  it('MCP search_tools takes the same filter', async () => {
    const call = async (args: Record<string, unknown>) =>
      JSON.parse((await mcpToolCall(t, 'search_tools', args)).content[0]!.text) as {
        results: { identity: { aid: string } }[];
      };
    expect(aids(await call({ query: 'send email', kind: 'mcp_server' }))).toEqual(['npm-mail-mcp-v1']);
    expect(aids(await call({ query: 'send email', kind: 'tool' }))).not.toContain('npm-mail-mcp-v1');
  });
});
