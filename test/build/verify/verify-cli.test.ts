// npm run verify as a process: JSON lines per tool, --write stores valid evidence in the contract files,
// exit 0 whatever the outcomes, 2 when it cannot run (no bubblewrap, no catalog).
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateContract } from '../../../build/model/validate-contract.ts';
import { type FakeRegistry, startFakeNpmRegistry } from '../../helpers/fake-npm-registry.ts';
import { toolContract } from '../../helpers/tool-contract.ts';
import { runVerifyCli } from '../../helpers/verify-cli.ts';

let registry: FakeRegistry;
let catalog: string;

const runCli = runVerifyCli;

beforeAll(async () => {
  registry = await startFakeNpmRegistry([
    {
      name: 'shout',
      files: {
        'cli.js':
          '#!/usr/bin/env node\nconsole.log(require("fs").readFileSync(process.argv[2], "utf8").toUpperCase())\n',
      },
      bin: { shout: 'cli.js' },
    },
  ]);
  catalog = await fsp.mkdtemp(path.join(os.tmpdir(), 'verify-cli-'));
  await fsp.mkdir(path.join(catalog, 'tools'));
  const tools = [
    toolContract(
      'npm-shout-v1',
      'npm',
      { install_cmd: 'npm install shout', execute_cmd: 'npx shout {file}' },
      { file: { type: 'string', role: 'input_file', examples: ['a.txt'] } },
    ),
    toolContract('github-brewed-v1', 'github', { install_cmd: 'brew install brewed', execute_cmd: 'brewed' }),
  ];
  for (const t of tools)
    await fsp.writeFile(path.join(catalog, 'tools', `${t.identity.aid}.json`), JSON.stringify(t, null, 2));
}, 60_000);

afterAll(async () => {
  await registry?.close();
  await fsp.rm(catalog, { recursive: true, force: true });
});

describe('npm run verify', { timeout: 300_000 }, () => {
  it('prints one JSON line per tool and stores valid evidence with --write', async () => {
    const r = await runCli(['--catalog', catalog, '--json', '--write'], { npm_config_registry: registry.url });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.aid).sort()).toEqual(['github-brewed-v1', 'npm-shout-v1']);
    const shout = lines.find((l) => l.aid === 'npm-shout-v1');
    expect(shout).toMatchObject({
      status: 'passed',
      level: 'runs',
      reason: expect.any(String),
      install_ms: expect.any(Number),
      execute_ms: expect.any(Number),
    });
    expect(lines.find((l) => l.aid === 'github-brewed-v1')).toMatchObject({
      status: 'unverifiable',
      reason: expect.stringMatching(/Homebrew/),
      install_ms: null,
    });
    expect(r.stderr).toMatch(/2 tool\(s\): 1 passed \(1 runs, 0 loads\), 0 failed, 1 unverifiable/);

    const stored = JSON.parse(await fsp.readFile(path.join(catalog, 'tools', 'npm-shout-v1.json'), 'utf8'));
    expect(validateContract(stored)).toEqual([]);
    expect(stored.record.verification).toMatchObject({
      status: 'passed',
      level: 'runs',
      runtime: expect.stringMatching(/^node /),
    });
  });

  it('exits 2 with a clear message when it cannot run', async () => {
    const missing = await runCli(['--catalog', path.join(catalog, 'nope'), '--json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no tools folder/);
    const badWait = await runCli(['--catalog', catalog, '--handshake-seconds', 'soon']);
    expect(badWait.code).toBe(2);
    expect(badWait.stderr).toMatch(/--handshake-seconds must be a number from 1 to 600/);
    const empty = await fsp.mkdtemp(path.join(os.tmpdir(), 'no-bwrap-'));
    try {
      const noSandbox = await runCli(['--catalog', catalog, '--json'], { PATH: empty });
      expect(noSandbox.code).toBe(2);
      expect(noSandbox.stderr).toMatch(/bubblewrap \(bwrap\) is not installed/);
      expect(noSandbox.stdout).toBe('');
    } finally {
      await fsp.rm(empty, { recursive: true, force: true });
    }
  });
});
