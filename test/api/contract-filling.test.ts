// A contract a machine can fill, as served: the full view (REST and MCP get_tool) carries each command as argv,
// and the instructions document shows roles, examples, the output target and what the tool requires.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { validateContract } from '../../build/model/validate-contract.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';

const qr: ToolContract = sampleContract('npm-qrfill-v1', {
  logic: {
    input_schema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'Text to encode', role: 'text', examples: ['hello world'] },
        output_png: { type: 'string', description: 'PNG file to write', role: 'output_file', default: 'qr.png' },
      },
      required: ['text'],
    },
    output_schema: { type: 'image', target: 'output_png' },
  },
  action: {
    install_cmd: 'npm install qrcode',
    execute_cmd: 'npx qrcode -o {output_png} "{text}"',
    requires: { network: true, env: ['QR_TOKEN'], runtime: { node: '>=22' } },
  },
});
const piped = sampleContract('npm-piped-v1', {
  logic: { input_schema: { type: 'string' }, output_schema: { type: 'string' } },
  action: { install_cmd: 'curl -fsSL https://x.example/install.sh | sh', execute_cmd: 'piped --version' },
});
const payload = { execution_feedback: 200, trend_keyword: 'make qr codes' };

describe('served contracts a machine can fill', () => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    expect(validateContract(qr, { commands: true })).toEqual([]);
    s = await startTestServer({ extraTools: [qr, piped] });
    client = new Client({ name: 'filling-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await s?.cleanup();
  });

  it('the full contract serves install_argv and execute_argv next to the strings, and requires', async () => {
    const res = await s.json('/api/v1/tools/npm-qrfill-v1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(res.status).toBe(200);
    expect(res.body.action).toEqual({
      ...qr.action,
      install_argv: ['npm', 'install', 'qrcode'],
      execute_argv: ['npx', 'qrcode', '-o', '{output_png}', '{text}'],
    });
    expect(res.body.logic.output_schema.target).toBe('output_png');
    expect(res.body.logic.input_schema.properties.text).toMatchObject({ role: 'text', examples: ['hello world'] });
  });

  it('a command that needs a shell is served with argv null', async () => {
    const res = await s.json('/api/v1/tools/npm-piped-v1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(res.body.action.install_argv).toBeNull();
    expect(res.body.action.execute_argv).toEqual(['piped', '--version']);
  });

  it('the partial contract still withholds the action block', async () => {
    expect((await s.json('/api/v1/tools/npm-qrfill-v1')).body.action).toBeNull();
  });

  it('MCP get_tool with a tax payload returns the same action, argv included', async () => {
    const r = (await client.callTool({
      name: 'get_tool',
      arguments: { aid: 'npm-qrfill-v1', ...payload },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as { action: Record<string, unknown> };
    expect(data.action.execute_argv).toEqual(['npx', 'qrcode', '-o', '{output_png}', '{text}']);
    expect(data.action.requires).toEqual(qr.action.requires);
  });

  it('the instructions show argv, each placeholder with role and example, requires and the output target', async () => {
    const text = await (await s.fetch('/api/v1/tools/npm-qrfill-v1/instructions')).text();
    expect(text).toContain(
      'As argv (no shell; fill placeholders inside each element): ["npx","qrcode","-o","{output_png}","{text}"]',
    );
    expect(text).toContain('- {output_png} (output_file, string): PNG file to write; e.g. qr.png');
    expect(text).toContain('- {text} (text, string): Text to encode; e.g. hello world');
    expect(text).toContain(
      '## Requires\n- network: the execute command needs the internet or a server\n' +
        '- environment variables (your credentials): QR_TOKEN\n- node >=22',
    );
    expect(text).toMatch(/## Output\ntype: image\ntarget: the file \{output_png\}/);
    expect(text).toContain('- text (string, required, role text, e.g. hello world): Text to encode');
  });
});
