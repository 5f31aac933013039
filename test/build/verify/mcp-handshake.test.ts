// The MCP verifier against a local npm registry: a real handshake with the official SDK client inside the
// sandbox, the server started from the installed package with no network; a server that lists tools over
// several pages passes, one that never answers, one that exits and a remote one get reasons to act on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handshakeMcpServer, judgeHandshake } from '../../../build/verify/mcp-handshake.ts';
import type { Registries } from '../../../build/verify/registries.ts';
import { sandboxUnavailable } from '../../../build/verify/sandbox.ts';
import { fakeMcpServerSource } from '../../helpers/fake-mcp-server.ts';
import { type FakeRegistry, startFakeNpmRegistry } from '../../helpers/fake-npm-registry.ts';
import { type FakeIndex, startFakePypiIndex } from '../../helpers/fake-pypi-index.ts';
import { mcpContract, toolContract } from '../../helpers/tool-contract.ts';

// A stdio MCP server in Python's standard library, for the PyPI path (a console script in a wheel).
const PY_SERVER = `import json, sys
def main():
    for line in sys.stdin:
        msg = json.loads(line)
        if 'id' not in msg:
            continue
        if msg['method'] == 'initialize':
            result = {'protocolVersion': msg['params']['protocolVersion'], 'capabilities': {'tools': {}},
                      'serverInfo': {'name': 'pytime', 'version': '0.3.0'}}
        elif msg['method'] == 'tools/list':
            result = {'tools': [{'name': 'get_time', 'description': 'Get the current time in a time zone.',
                                 'inputSchema': {'type': 'object', 'properties': {'tz': {'type': 'string'}}}}]}
        else:
            print(json.dumps({'jsonrpc': '2.0', 'id': msg['id'], 'error': {'code': -32601, 'message': 'no'}}), flush=True)
            continue
        print(json.dumps({'jsonrpc': '2.0', 'id': msg['id'], 'result': result}), flush=True)
`;

const CONFIG_CHECK = `const fs = require('fs');
const bad = (m) => { console.error('Error: ' + m); process.exit(1); };
try { new URL(process.env.ACME_BASE_URL); } catch { bad('ACME_BASE_URL is not a valid URL'); }
if (!/^\\d+$/.test(process.env.ACME_PORT ?? '')) bad('ACME_PORT must be a number');
if (!fs.statSync(process.env.ACME_DATA_DIR ?? '', { throwIfNoEntry: false })?.isDirectory()) bad('ACME_DATA_DIR is not a folder');
try { JSON.parse(fs.readFileSync(process.env.ACME_SETTINGS, 'utf8')); } catch { bad('ACME_SETTINGS is not a JSON file'); }
if (!['true', 'false'].includes(process.env.ACME_CACHE)) bad('ACME_CACHE must be true or false');
if (process.env.ACME_MODE !== 'fast') bad('ACME_MODE must be one of fast, slow');
if (!process.env.ACME_API_KEY) bad('ACME_API_KEY is required');`;

// 400 tools of about 3 KB each: about 1.2 MB of tool list.
const WIDE_TOOLS = Array.from({ length: 400 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool number ${i}. ${'It does one small thing well. '.repeat(100)}`,
}));

let npm: FakeRegistry;
let pypi: FakeIndex;
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
    server('paged-mcp', { pageSize: 2, stdoutBanner: 'Server ready' }),
    server('silent-mcp', { silent: true, stdoutBanner: 'Listening...' }),
    server('needs-key-mcp', { requiresEnv: ['ACME_API_KEY'] }),
    // Checks the shape of its configuration at start, as real servers do, and exits on a bad value.
    server('configured-mcp', { atStart: CONFIG_CHECK }),
    // Lists more than the sandbox's 1 MiB of output can carry.
    server('wide-mcp', { tools: WIDE_TOOLS, pageSize: 100 }),
    // Rewrites the client's tool list file as the client closes it: the host must not take that list.
    server('rewriting-mcp', {
      atExit: `require('fs').writeFileSync('/work/.mcp-tools.json', JSON.stringify([{ name: 'planted' }]))`,
    }),
    {
      name: 'crashy-mcp',
      files: {
        'server.js': '#!/usr/bin/env node\nconsole.error("Error: cannot find config.yaml");\nprocess.exit(2);\n',
      },
      bin: { 'crashy-mcp': 'server.js' },
    },
  ]);
  pypi = await startFakePypiIndex([
    {
      name: 'pytime-mcp',
      files: { 'pytime_mcp/__init__.py': PY_SERVER },
      scripts: { 'pytime-mcp': 'pytime_mcp:main' },
    },
  ]);
  registries = { npm: npm.url, pipIndex: pypi.url, pipExtraIndexes: [], pipFindLinks: [] };
}, 60_000);

afterAll(async () => {
  await npm?.close();
  await pypi?.close();
});

describe('handshakeMcpServer', { timeout: 300_000 }, () => {
  it('installs the package, starts the server offline and lists every page of tools (a stdout banner skipped)', async () => {
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

  it('installs a PyPI server in a virtual environment and lists its tools', async () => {
    const c = toolContract('pypi-pytime-mcp-v1', 'pypi', {
      install_cmd: 'pip install pytime-mcp',
      execute_cmd: 'pytime-mcp',
    });
    c.identity.kind = 'mcp_server';
    c.logic.mcp = { transport: 'stdio', tools_read_at: null, tools: [] };
    const result = await handshakeMcpServer(c, { registries });
    const verdict = judgeHandshake(result);
    expect(verdict, result.client?.stderr).toMatchObject({
      status: 'passed',
      level: 'runs',
      runtime: expect.stringMatching(/^python /),
    });
    expect(result.listing?.tools.map((t) => t.name)).toEqual(['get_time']);
    expect(result.listing?.server_info).toEqual({ name: 'pytime', version: '0.3.0' });
  });

  it('fails a server that never answers the handshake, saying so and what it printed', async () => {
    const result = await handshakeMcpServer(mcpContract('silent-mcp'), { registries, handshakeMs: 15_000 });
    const verdict = judgeHandshake(result);
    expect(verdict.status).toBe('failed');
    expect(verdict.reason).toMatch(
      /did not answer the MCP handshake \(initialize\) within 15 s; its stdout carried text that is not MCP \(.*\); server stderr: silent-mcp 1\.0\.0 running on stdio/,
    );
  });

  it('fails a server that exits at start, with its error line', async () => {
    const verdict = judgeHandshake(await handshakeMcpServer(mcpContract('crashy-mcp'), { registries }));
    expect(verdict.status).toBe('failed');
    expect(verdict.reason).toMatch(/exited before the MCP handshake; server stderr: Error: cannot find config\.yaml/);
  });

  it('fails a command that the install did not provide, naming it', async () => {
    const c = mcpContract('paged-mcp', {}, { execute_cmd: 'paged-mcp-server-typo' });
    const verdict = judgeHandshake(await handshakeMcpServer(c, { registries }));
    expect(verdict).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^the server command paged-mcp-server-typo was not found after the install/),
    });
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

  it('gives required variables values of their shape (URL, port, folder, JSON file, boolean, choice), so a checking server starts', async () => {
    const c = mcpContract('configured-mcp', {
      env_vars: [
        { name: 'ACME_BASE_URL', is_required: true },
        { name: 'ACME_PORT', is_required: true },
        { name: 'ACME_DATA_DIR', is_required: true },
        { name: 'ACME_SETTINGS', is_required: true, description: 'Path to the JSON settings file' },
        { name: 'ACME_CACHE', is_required: true, format: 'boolean' },
        { name: 'ACME_MODE', is_required: true, choices: ['fast', 'slow'] },
        { name: 'ACME_API_KEY', is_required: true, is_secret: true },
      ],
    });
    const result = await handshakeMcpServer(c, { registries });
    const verdict = judgeHandshake(result);
    expect(verdict, result.failure?.stderr_tail).toMatchObject({ status: 'passed', level: 'runs' });
    expect(verdict.reason).toMatch(
      /placeholder values were set for ACME_BASE_URL \(a URL\), ACME_PORT \(a port number\), ACME_DATA_DIR \(a folder\), ACME_SETTINGS \(a file\), ACME_CACHE \(false\), ACME_MODE \(its first choice\), ACME_API_KEY \(/,
    );
    // The checks are real: a port given as text (a wrong shape) stops the same server at start.
    const wrong = mcpContract('configured-mcp', {
      env_vars: (c.logic.mcp?.env_vars ?? []).map((v) => (v.name === 'ACME_PORT' ? { ...v, default: 'port' } : v)),
    });
    const failed = judgeHandshake(await handshakeMcpServer(wrong, { registries }));
    expect(failed).toMatchObject({ status: 'failed', reason: expect.stringMatching(/ACME_PORT must be a number/) });
  });

  it('reads a tool list larger than the 1 MiB output cap from the file the client writes', async () => {
    const result = await handshakeMcpServer(mcpContract('wide-mcp'), { registries });
    const verdict = judgeHandshake(result);
    expect(verdict, verdict.reason).toMatchObject({ status: 'passed', level: 'runs' });
    expect(verdict.reason).toMatch(/tools\/list gave 400 tools/);
    expect(result.listing?.tools).toHaveLength(400);
    expect(result.listing?.tools[399]?.description).toBe(WIDE_TOOLS[399]?.description);
    expect(JSON.stringify(WIDE_TOOLS).length).toBeGreaterThan(1024 ** 2);
    expect(result.client?.stdout.length).toBeLessThan(64 * 1024);
  });

  it('refuses a tool list file that differs from what the client reported (a server rewrote it)', async () => {
    const result = await handshakeMcpServer(mcpContract('rewriting-mcp'), { registries });
    expect(result.listing).toBeUndefined();
    expect(judgeHandshake(result)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/tools\/list failed: the tool list file differs from what the client wrote/),
    });
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
