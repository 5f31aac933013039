// The scripted agent end to end: a real server on loopback, a local npm registry with packages built here,
// the verification sandbox; outcomes classified and reported back through the telemetry protocol.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Attempt,
  classify,
  heldFormats,
  heldInputs,
  heldRoles,
  pickResult,
  type RunReport,
  type Runner,
  runTask,
} from '../../../build/eval/agent/agent.ts';
import type { FillResult } from '../../../build/eval/agent/fill.ts';
import type { FullContract } from '../../../build/eval/agent/service-client.ts';
import { createSandboxRunner } from '../../../build/eval/agent/sandbox-runner.ts';
import { CatalogClient } from '../../../build/eval/agent/service-client.ts';
import type { AgentTask } from '../../../build/eval/agent/tasks.ts';
import { sandboxUnavailable } from '../../../build/verify/sandbox.ts';
import { type FakeRegistry, startFakeNpmRegistry } from '../../helpers/fake-npm-registry.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const UPPER = `#!/usr/bin/env node
process.stdout.write(require('fs').readFileSync(process.argv[2], 'utf8').toUpperCase());
`;

const shout = sampleContract('npm-shoutcase-v1', {
  identity: { task: 'Convert a text file to shouty upper case letters', tags: ['shoutcase', 'uppercase'] },
  logic: {
    input_schema: {
      type: 'object',
      properties: {
        file: { type: 'string', role: 'input_file', description: 'Text file to convert', examples: ['notes.txt'] },
      },
    },
    output_schema: { type: 'string', target: 'stdout' },
  },
  action: { install_cmd: 'npm install shoutcase', execute_cmd: 'npx shoutcase {file}' },
});
const ARG_UPPER = `#!/usr/bin/env node
process.stdout.write(process.argv[2].toUpperCase());
`;
// Takes the text itself: an agent holding a text file passes its content.
const echo = sampleContract('npm-echocase-v1', {
  identity: { task: 'Echo a text in echocase capitals', tags: ['echocase'] },
  logic: {
    input_schema: {
      type: 'object',
      properties: { text: { type: 'string', role: 'text', description: 'The text', examples: ['hi'] } },
    },
    output_schema: { type: 'string', target: 'stdout' },
  },
  action: { install_cmd: 'npm install echocase', execute_cmd: 'npx echocase {text}' },
});
const whisper = sampleContract('npm-whispercase-v1', {
  identity: { task: 'Convert a text file to whispercase', tags: ['whispercase'] },
  logic: {
    input_schema: {
      type: 'object',
      properties: { file: { type: 'string', role: 'input_file', description: 'Text file' } },
    },
    output_schema: { type: 'string', target: 'stdout' },
  },
  action: { install_cmd: 'npm install whispercase', execute_cmd: 'npx whispercase {mode} {file}' },
});

let server: TestServer;
let npm: FakeRegistry;
let runner: Runner;
let client: CatalogClient;
let filesDir: string;

beforeAll(async () => {
  const missing = sandboxUnavailable();
  if (missing) throw new Error(`these tests need the sandbox: ${missing}`);
  npm = await startFakeNpmRegistry([
    { name: 'shoutcase', files: { 'cli.js': UPPER }, bin: { shoutcase: 'cli.js' } },
    { name: 'whispercase', files: { 'cli.js': UPPER }, bin: { whispercase: 'cli.js' } },
    { name: 'echocase', files: { 'cli.js': ARG_UPPER }, bin: { echocase: 'cli.js' } },
  ]);
  const r = createSandboxRunner({
    npm: npm.url,
    pipIndex: 'http://127.0.0.1:9/simple',
    pipExtraIndexes: [],
    pipFindLinks: [],
  });
  if (typeof r === 'string') throw new Error(r);
  runner = r;
  server = await startTestServer({ extraTools: [shout, whisper, echo] });
  client = new CatalogClient(server.url);
  filesDir = mkdtempSync(path.join(os.tmpdir(), 'agent-files-'));
  writeFileSync(path.join(filesDir, 'hello.txt'), 'hello agent\n');
  writeFileSync(path.join(filesDir, 'pixel.png'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await server?.cleanup();
  await npm?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

const task = (need: string, check: AgentTask['check']): AgentTask => ({
  id: 't-1',
  need,
  category: 'text',
  platform: 'npm',
  accept_nonzero_exit: false,
  check,
  inputs: [{ name: 'text', role: 'input_file', file: 'hello.txt' }],
});

describe('runTask', () => {
  it('meets a need with the first answer, through the tax gate and the sandbox, and reports it back', async () => {
    const before = (await server.json('/api/v1/tools/npm-shoutcase-v1')).body.trust.telemetry;
    const outcome = await runTask(task('shoutcase a text file', { contains: 'HELLO AGENT' }), {
      client,
      filesDir,
      runner,
      answers: 1,
    });
    expect(outcome.attempts).toEqual([{ rank: 1, aid: 'npm-shoutcase-v1', kind: 'success', reason: '' }]);
    expect(outcome).toMatchObject({ successRank: 1, firstFailure: null, failure: null, ran: true });
    const after = (await server.json('/api/v1/tools/npm-shoutcase-v1')).body.trust.telemetry;
    // The lookup (102) counts as neither success nor failure; the outcome report is a success with a yes vote.
    expect(after.votes.yes).toBe((before.votes.yes ?? 0) + 1);
    expect(after.success_rate).toBe(1);
    expect(npm.requests.some((r) => r.includes('shoutcase') && r.endsWith('.tgz'))).toBe(true);
  }, 180_000);

  it('says wrong result when the command runs but the check fails, and votes no', async () => {
    const outcome = await runTask(task('shoutcase a text file', { contains: 'GOODBYE' }), {
      client,
      filesDir,
      runner,
      answers: 1,
    });
    expect(outcome.attempts[0]).toMatchObject({
      aid: 'npm-shoutcase-v1',
      kind: 'wrong result',
      reason: 'result lacks "GOODBYE"',
    });
    expect(outcome).toMatchObject({ successRank: null, firstFailure: 'wrong result', failure: 'wrong result' });
    const t = (await server.json('/api/v1/tools/npm-shoutcase-v1')).body.trust.telemetry;
    expect(t.votes.no).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('cannot fill an undescribed placeholder and never installs that tool', async () => {
    const outcome = await runTask(task('whispercase a text file', { contains: 'x' }), {
      client,
      filesDir,
      runner,
      answers: 1,
    });
    expect(outcome.attempts[0]).toMatchObject({
      aid: 'npm-whispercase-v1',
      kind: 'cannot fill',
      reason: '{mode}: not described in input_schema',
    });
    expect(outcome.failure).toBe('cannot fill');
    expect(npm.requests.some((r) => r.includes('whispercase') && r.endsWith('.tgz'))).toBe(false);
  }, 60_000);

  it('passes a held text file as its text (without the last line end) to a command that takes a text', async () => {
    const outcome = await runTask(task('echocase a text', { matches: '^HELLO AGENT$' }), {
      client,
      filesDir,
      runner,
      answers: 1,
    });
    expect(outcome.attempts).toEqual([{ rank: 1, aid: 'npm-echocase-v1', kind: 'success', reason: '' }]);
  }, 180_000);

  it('holds small text files as text_file with their text, binary files as input_file', () => {
    const held = heldInputs(
      {
        ...task('x', { contains: 'x' }),
        inputs: [
          { name: 'text', role: 'input_file', file: 'hello.txt' },
          { name: 'image', role: 'input_file', file: 'pixel.png' },
          { name: 'word', role: 'text', value: 'hi' },
        ],
      },
      filesDir,
    );
    expect(held).toEqual([
      { name: 'text', role: 'text_file', file: 'hello.txt', value: 'hello agent' },
      { name: 'image', role: 'input_file', file: 'pixel.png' },
      { name: 'word', role: 'text', value: 'hi' },
    ]);
    expect(heldRoles(held)).toEqual(['text_file', 'input_file', 'text']);
  });

  it('tells search the extensions of the files it holds (a .tar.gz as one)', () => {
    const files = ['hello.txt', 'pixel.PNG', 'site.tar.gz', 'README'].map((file, i) => ({
      name: `f${i}`,
      role: 'input_file' as const,
      file,
    }));
    const t = {
      ...task('x', { contains: 'x' }),
      inputs: [...files, { name: 'w', role: 'text' as const, value: 'a.md' }],
    };
    expect(heldFormats(t)).toEqual(['txt', 'png', 'tar.gz']);
  });

  it('MCP search_tools answers the same first hits as REST', async () => {
    const rest = await client.search('shoutcase a text file', 'npm');
    const mcp = await client.mcpSearch('shoutcase a text file', 'npm');
    expect(rest[0]?.aid).toBe('npm-shoutcase-v1');
    expect(mcp.map((h) => h.aid)).toEqual(rest.map((h) => h.aid));
  });
});

describe('classify', () => {
  const a = (rank: number, kind: Attempt['kind']): Attempt => ({ rank, aid: `a${rank}`, kind, reason: '' });
  it('no answer, or none that fits: not found', () => {
    expect(classify([], null)).toEqual({ firstFailure: 'not found', failure: 'not found' });
    expect(classify([a(1, 'does not fit'), a(2, 'does not fit')], null)).toEqual({
      firstFailure: 'not found',
      failure: 'not found',
    });
  });
  it('a later answer met the need or fits better: wrong tool ranked first', () => {
    expect(classify([a(1, 'execute failed'), a(2, 'success')], 2)).toEqual({
      firstFailure: 'wrong tool ranked first',
      failure: null,
    });
    expect(classify([a(1, 'does not fit'), a(2, 'cannot fill')], null)).toEqual({
      firstFailure: 'wrong tool ranked first',
      failure: 'cannot fill',
    });
  });
  it('otherwise what the first answer did', () => {
    expect(classify([a(1, 'success')], 1)).toEqual({ firstFailure: null, failure: null });
    expect(classify([a(1, 'install failed'), a(2, 'wrong result')], null)).toEqual({
      firstFailure: 'install failed',
      failure: 'install failed',
    });
  });
});

describe('pickResult', () => {
  const contract = (target?: string) =>
    ({ logic: { output_schema: { type: 'string', ...(target ? { target } : {}) } } }) as FullContract;
  const fill = { outputs: [{ placeholder: 'out', path: 'out.png', role: 'output_file' }] } as FillResult;
  const report = (stdout: string, files: Record<string, Uint8Array>) =>
    ({
      install: { ok: true, detail: '' },
      execute: { exitCode: 0, stdout, stderr: '', timedOut: false, ms: 1 },
      files,
      dirs: {},
    }) as RunReport;
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const png = new Uint8Array([0x89, 0x50]);
  it('reads the output file the contract names as its target, else stdout', () => {
    expect(pickResult(contract('out'), fill, report('wrote out.png', { out: png }))).toEqual(png);
    expect(text(pickResult(contract('stdout'), fill, report('hello', { out: png })))).toBe('hello');
  });
  it('without a target: stdout when there is any, else the one file written', () => {
    expect(text(pickResult(contract(), fill, report('hello', { out: png })))).toBe('hello');
    expect(pickResult(contract(), fill, report('', { out: png }))).toEqual(png);
    expect(text(pickResult(contract('out'), fill, report('fallback', {})))).toBe('fallback');
  });
});
