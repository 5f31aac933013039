// GET /api/v1/tools?inputs= and MCP search_tools {inputs}: an agent says what it holds (a file, a text …) and
// gets only tools whose command has a placeholder for each; without it, ranking alone decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { placeholderRoles, takesInputs } from '../../build/model/input-roles.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';
import { mcpToolCall, startTestServer, type TestServer } from '../helpers/server.ts';

const contract = (
  aid: string,
  task: string,
  cmd: string,
  properties: ToolContract['logic']['input_schema']['properties'],
) => {
  const c = sampleContract(aid, { identity: { task, tags: ['checksum', 'sha256', 'hash'] } });
  c.action.execute_cmd = cmd;
  c.logic.input_schema = { type: 'object', properties, required: Object.keys(properties ?? {}) };
  c.trust.reliability_score = 0.97;
  c.record = { verified: true };
  return c;
};
// Two tools for the same job: the better-matching one takes a text, the other a file.
const textHasher = contract(
  'npm-zz-text-hasher-v1',
  'Compute the SHA-256 checksum of a text: sha256 checksum hash digest of a string',
  'zz-text-hasher {text}',
  { text: { type: 'string', description: 'Text to hash', role: 'text', examples: ['hello'] } },
);
const fileHasher = contract('npm-zz-file-hasher-v1', 'SHA-256 checksum of a file', 'zz-file-hasher {file}', {
  file: { type: 'string', description: 'File to hash', role: 'input_file', examples: ['in.bin'] },
});
const twoFiles = contract('npm-zz-pair-hasher-v1', 'SHA-256 checksums of two files compared', 'zz-pair {a} {b}', {
  a: { type: 'string', description: 'First file', role: 'input_file', examples: ['a.bin'] },
  b: { type: 'string', description: 'Second file', role: 'input_file', examples: ['b.bin'] },
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ extraTools: [textHasher, fileHasher, twoFiles] });
}, 120_000);
afterAll(() => t?.cleanup());

const aids = (body: { results: { identity: { aid: string } }[] }) => body.results.map((r) => r.identity.aid);
const q = 'sha256%20checksum%20hash%20digest';

describe('placeholder roles', () => {
  it('each held input needs its own compatible placeholder', () => {
    expect(placeholderRoles(twoFiles)).toEqual(['input_file', 'input_file']);
    expect(takesInputs(['input_file', 'input_file'], ['input_file', 'input_file'])).toBe(true);
    expect(takesInputs(['input_file'], ['input_file', 'input_file'])).toBe(false);
    // A text placeholder takes a URL or JSON; a URL placeholder takes a text; a file only a file.
    expect(takesInputs(['text', 'input_file'], ['url', 'input_file'])).toBe(true);
    expect(takesInputs(['url'], ['text'])).toBe(true);
    expect(takesInputs(['text'], ['input_file'])).toBe(false);
    expect(takesInputs([], [])).toBe(true);
  });
});

describe('search by held inputs', () => {
  it('inputs=input_file keeps only commands that read a file; the text tool ranked first is left out', async () => {
    const all = await t.json(`/api/v1/tools?q=${q}`);
    expect(aids(all.body)[0]).toBe('npm-zz-text-hasher-v1');
    const files = await t.json(`/api/v1/tools?q=${q}&inputs=input_file`);
    expect(files.status).toBe(200);
    expect(files.body.inputs).toEqual(['input_file']);
    expect(aids(files.body)).not.toContain('npm-zz-text-hasher-v1');
    expect(aids(files.body)[0]).toBe('npm-zz-file-hasher-v1');
    const pair = await t.json(`/api/v1/tools?q=${q}&inputs=input_file,input_file`);
    expect(aids(pair.body)).toEqual(['npm-zz-pair-hasher-v1']);
    const text = await t.json(`/api/v1/tools?q=${q}&inputs=text`);
    expect(aids(text.body)[0]).toBe('npm-zz-text-hasher-v1');
    expect(aids(text.body)).not.toContain('npm-zz-file-hasher-v1');
  });

  it('an unknown role or too many is a 422 naming the parameter', async () => {
    for (const bad of ['image', 'input_file,,text', 'number', Array(9).fill('text').join(',')]) {
      const res = await t.json(`/api/v1/tools?q=hash&inputs=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(JSON.stringify(res.body)).toContain('inputs');
    }
  });

  it('MCP search_tools takes the same filter', async () => {
    const call = (args: Record<string, unknown>) => mcpToolCall(t, 'search_tools', args);
    const found = await call({ query: 'sha256 checksum hash digest', inputs: ['input_file'] });
    expect(aids(JSON.parse(found.content[0]!.text))[0]).toBe('npm-zz-file-hasher-v1');
    const bad = await call({ query: 'hash', inputs: ['image'] });
    expect(bad.isError).toBe(true);
  });
});
