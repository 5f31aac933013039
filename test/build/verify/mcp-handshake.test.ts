// The MCP verifier against a local npm registry: a real handshake with the official SDK client inside the
// sandbox, the server started from the installed package with no network; a server that lists tools over
// several pages passes, one that never answers, one that exits and a remote one get reasons to act on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handshakeMcpServer, judgeHandshake } from '../../../build/verify/mcp-handshake.ts';
import type { Registries } from '../../../build/verify/registries.ts';
import { sandboxUnavailable } from '../../../build/verify/sandbox.ts';
import { fakeMcpServerSource } from '../../helpers/fake-mcp-server.ts';
import { type FakeRegistry, startFakeNpmRegistry } from '../../helpers/fake-npm-registry.ts';
import { mcpContract } from '../../helpers/tool-contract.ts';

let npm: FakeRegistry;
let registries: Registries;

const TOOLS = [
  {
    name: 'add',
    description: 'Add two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
  },
  { name: 'echo', description: 'Echo the text back.' },
  { name: 'upper', description: 'Uppercase the text.' },
];

beforeAll(async () => {
  const missing = sandboxUnavailable();
  if (missing) throw new Error(`these tests need the sandbox: ${missing}`);
  const server = (name: string, extra: Partial<Parameters<typeof fakeMcpServerSource>[0]> = {}) => ({
    name,
    files: { 'server.js': fakeMcpServerSource({ name, version: '1.0.0', tools: TOOLS, ...extra }) },
    bin: { [name]: 'server.js' },
  });
  npm = await startFakeNpmRegistry([
    server('paged-mcp', { pageSize: 2 }),
    server('silent-mcp', { silent: true }),
    server('needs-key-mcp', { requiresEnv: ['ACME_API_KEY'] }),
    {
      name: 'crashy-mcp',
      files: {
        'server.js': '#!/usr/bin/env node\nconsole.error("Error: cannot find config.yaml");\nprocess.exit(2);\n',
      },
      bin: { 'crashy-mcp': 'server.js' },
    },
  ]);
  registries = { npm: npm.url, pipIndex: npm.url, pipExtraIndexes: [], pipFindLinks: [] };
}, 60_000);

afterAll(async () => {
  await npm?.close();
});

describe('handshakeMcpServer', { timeout: 300_000 }, () => {
  it('installs the package, starts the server offline and lists every page of tools', async () => {
    const result = await handshakeMcpServer(mcpContract('paged-mcp'), { registries });
    const verdict = judgeHandshake(result);
    expect(verdict).toMatchObject({ status: 'passed', level: 'runs', runtime: expect.stringMatching(/^node /) });
    expect(verdict.reason).toMatch(
      /answered the MCP handshake as paged-mcp 1\.0\.0 \(protocol [0-9-]+\); tools\/list gave 3 tools/,
    );
    expect(result.listing?.tools.map((t) => t.name)).toEqual(['add', 'echo', 'upper']);
    expect(result.listing?.tools[0]?.inputSchema).toEqual(TOOLS[0]?.inputSchema);
    expect(result.listing?.server_info).toEqual({ name: 'paged-mcp', version: '1.0.0' });
  });

  it('fails a server that never answers the handshake, saying so and what it printed', async () => {
    const result = await handshakeMcpServer(mcpContract('silent-mcp'), { registries, handshakeMs: 5_000 });
    const verdict = judgeHandshake(result);
    expect(verdict.status).toBe('failed');
    expect(verdict.reason).toMatch(
      /did not answer the MCP handshake \(initialize\) within 5 s; server stderr: silent-mcp 1\.0\.0 running on stdio/,
    );
  });

  it('fails a server that exits at start, with its error line', async () => {
    const verdict = judgeHandshake(await handshakeMcpServer(mcpContract('crashy-mcp'), { registries }));
    expect(verdict.status).toBe('failed');
    expect(verdict.reason).toMatch(/exited before the MCP handshake; server stderr: Error: cannot find config\.yaml/);
  });

  it('gives required environment variables placeholder values and says so', async () => {
    const c = mcpContract('needs-key-mcp', {
      env_vars: [
        { name: 'ACME_API_KEY', is_required: true, is_secret: true },
        { name: 'ACME_REGION', is_required: false },
      ],
    });
    const verdict = judgeHandshake(await handshakeMcpServer(c, { registries }));
    expect(verdict.status).toBe('passed');
    expect(verdict.reason).toMatch(
      /placeholder values were set for ACME_API_KEY \(required environment variables; no real credentials\)/,
    );
  });

  it('calls a remote server unverifiable without trying (no internet here)', async () => {
    const c = mcpContract('remote-mcp', { transport: 'streamable-http', url: 'https://mcp.example.com/mcp' });
    const verdict = judgeHandshake(await handshakeMcpServer(c, { registries }));
    expect(verdict).toMatchObject({
      status: 'unverifiable',
      reason: expect.stringMatching(
        /remote server \(streamable-http at https:\/\/mcp\.example\.com\/mcp\).*no internet/,
      ),
    });
  });
});
