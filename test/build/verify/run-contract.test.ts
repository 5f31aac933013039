// runContract + judge against a local npm registry and a local PyPI index on loopback, with packages built
// here: good, broken, silent, import-only, network-needing and never-run contracts get the right status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { runContract } from '../../../build/verify/run-contract.ts';
import { sandboxUnavailable } from '../../../build/verify/sandbox.ts';
import { judge } from '../../../build/verify/verdict.ts';
import { type LocalRegistries, startLocalRegistries } from '../../helpers/local-registries.ts';
import { toolContract as contract } from '../../helpers/tool-contract.ts';

const UPPER = `#!/usr/bin/env node
const fs = require('fs');
process.stdout.write(fs.readFileSync(process.argv[2], 'utf8').toUpperCase());
`;

let local: LocalRegistries;

beforeAll(async () => {
  const missing = sandboxUnavailable();
  if (missing) throw new Error(`these tests need the sandbox: ${missing}`);
  local = await startLocalRegistries(
    [
      { name: 'shout', files: { 'cli.js': UPPER }, bin: { shout: 'cli.js' } },
      {
        name: 'fails',
        files: { 'cli.js': '#!/usr/bin/env node\nconsole.error("Error: cannot parse input"); process.exit(3);\n' },
        bin: { fails: 'cli.js' },
      },
      {
        name: 'fetchy',
        files: {
          'cli.js': '#!/usr/bin/env node\nfetch(process.argv[2]).then((r) => r.text()).then((t) => console.log(t));\n',
        },
        bin: { fetchy: 'cli.js' },
      },
      { name: 'quiet', files: { 'cli.js': '#!/usr/bin/env node\n' }, bin: { quiet: 'cli.js' } },
      {
        // Like a browser automation package: its postinstall downloads a browser from a CDN (refused here), and its
        // command then cannot find it.
        name: 'needs-browser',
        scripts: { postinstall: 'node download.js' },
        files: {
          'download.js': `const http = require('http'); const u = new URL(process.env.HTTPS_PROXY);
const req = http.request({ host: u.hostname, port: u.port, method: 'CONNECT', path: 'cdn.browsers.test:443' });
req.on('connect', (res) => { console.log('download answered', res.statusCode); process.exit(0); });
req.on('response', (res) => { console.log('download refused', res.statusCode); process.exit(0); });
req.on('error', (e) => { console.log('download failed', e.message); process.exit(0); });
req.end();\n`,
          'cli.js': '#!/usr/bin/env node\nconsole.error("Error: Could not find the browser"); process.exit(1);\n',
        },
        bin: { 'needs-browser': 'cli.js' },
      },
      {
        name: 'cloudy',
        main: 'index.js',
        files: {
          'index.js': `exports.Client = class Client { async listThings() {
          const r = await fetch('https://api.example.com/things'); return r.json(); } };\n`,
        },
      },
    ],
    [
      {
        name: 'pyshout',
        files: { 'pyshout/__init__.py': 'import sys\ndef main():\n    print(open(sys.argv[1]).read().upper())\n' },
        scripts: { pyshout: 'pyshout:main' },
      },
    ],
  );
}, 60_000);

afterAll(() => local?.close());

const limits = { wallMs: 120_000 };
const verify = (c: ToolContract, values?: Record<string, string>) => local.verify(c, values ? { values } : {});

describe('runContract', { timeout: 300_000 }, () => {
  it('passes an npm tool that does its task on a sample file (level runs), output in the result', async () => {
    const { run, verdict } = await verify(
      contract(
        'npm-shout-v1',
        'npm',
        { install_cmd: 'npm install shout', execute_cmd: 'npx shout {file}' },
        { file: { type: 'string', examples: ['notes.txt'] } },
      ),
    );
    expect(verdict).toMatchObject({
      status: 'passed',
      level: 'runs',
      runtime: expect.stringMatching(/^node \d+\.\d+$/),
    });
    expect(run.inputs.file).toMatchObject({ value: 'notes.txt', source: 'example', sample: 'sample.txt' });
    expect(run.outputs.stdout).toContain('THE QUICK BROWN FOX');
    expect(verdict.install_ms).toBeGreaterThan(0);
    expect(local.npm.requests.some((r) => r.endsWith('.tgz'))).toBe(true);
  });

  it('uses the values a caller gives (the benchmark passes its own)', async () => {
    const { run } = await verify(
      contract('npm-shout-v1', 'npm', { install_cmd: 'npm install shout', execute_cmd: 'npx shout {file}' }),
      { file: 'mine.txt' },
    );
    // A given file name gets the sample bytes unless files are given too.
    expect(run.execute?.argv).toEqual(['npx', 'shout', 'mine.txt']);
  });

  it('runs a URL-fetching tool against the fixture server inside the sandbox (the internet stays out of reach)', async () => {
    const { run, verdict } = await verify(
      contract(
        'npm-fetchy-v1',
        'npm',
        { install_cmd: 'npm install fetchy', execute_cmd: 'npx fetchy {url}', requires: { network: true } },
        { url: { type: 'string', role: 'url', examples: ['https://example.com/page'] } },
      ),
    );
    expect(run.inputs.url?.value).toMatch(/^http:\/\/127\.0\.0\.1:8080\//);
    expect(verdict).toMatchObject({ status: 'passed', level: 'runs' });
    expect(run.outputs.stdout).toContain('<title>Sample page</title>');
  });

  it('fails a tool whose command exits non-zero, with its error line', async () => {
    const { verdict } = await verify(
      contract('npm-fails-v1', 'npm', { install_cmd: 'npm install fails', execute_cmd: 'npx fails' }),
    );
    expect(verdict.status).toBe('failed');
    expect(verdict.reason).toMatch(/execute exited with code 3: Error: cannot parse input/);
  });

  it('calls a failure after an install that reached for a withheld host unverifiable, naming the host', async () => {
    const browser = await verify(
      contract('npm-needs-browser-v1', 'npm', {
        install_cmd: 'npm install needs-browser',
        execute_cmd: 'npx needs-browser',
      }),
    );
    expect(browser.run.refusedHosts).toEqual(['cdn.browsers.test:443']);
    expect(browser.verdict).toMatchObject({ status: 'unverifiable' });
    expect(browser.verdict.reason).toMatch(
      /^its install reached for cdn\.browsers\.test:443 .*execute exited with code 1: Error: Could not find the browser/,
    );
  });

  it('fails a tool that prints nothing', async () => {
    const { verdict } = await verify(
      contract('npm-quiet-v1', 'npm', { install_cmd: 'npm install quiet', execute_cmd: 'npx quiet' }),
    );
    expect(verdict).toMatchObject({ status: 'failed', reason: expect.stringMatching(/printed nothing/) });
  });

  it('fails a package that is not in the registry', async () => {
    const { verdict } = await verify(
      contract('npm-nowhere-v1', 'npm', { install_cmd: 'npm install nowhere-pkg', execute_cmd: 'npx nowhere-pkg' }),
    );
    expect(verdict).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^install exited with code/) });
  });

  it('fails import-only and code-injection commands without running them', async () => {
    const importOnly = await verify(
      contract('npm-shout-v1', 'npm', { install_cmd: 'npm install shout', execute_cmd: `node -e "require('shout')"` }),
    );
    expect(importOnly.verdict).toMatchObject({ status: 'failed', reason: expect.stringMatching(/only imports/) });
    expect(importOnly.run.install).toBeUndefined();
    const injected = await verify(
      contract('npm-shout-v1', 'npm', {
        install_cmd: 'npm install shout',
        execute_cmd: `node -e "console.log('{text}')"`,
      }),
    );
    expect(injected.verdict).toMatchObject({ status: 'failed', reason: expect.stringMatching(/would run as code/) });
  });

  it('never runs Homebrew, sudo, piped scripts or repository installs: unverifiable with the reason', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ install_cmd: 'brew install thing', execute_cmd: 'thing --help' }, /Homebrew/],
      [{ install_cmd: 'curl -fsSL https://example.com/install.sh | sh', execute_cmd: 'thing' }, /pipes into sh/],
      [{ install_cmd: 'sudo apt-get install thing', execute_cmd: 'thing' }, /sudo/],
      [
        { install_cmd: 'pip install git+https://github.com/o/thing.git', execute_cmd: 'thing {file}' },
        /outside the package index/,
      ],
      [{ install_cmd: 'cargo install thing', execute_cmd: 'thing' }, /npm and pip installs only/],
    ];
    for (const [action, reason] of cases) {
      const { verdict, run } = await verify(contract('github-thing-v1', 'github', action));
      expect(verdict.status, action.install_cmd).toBe('unverifiable');
      expect(verdict.reason).toMatch(reason);
      expect(run.setup).toBeUndefined();
    }
  });

  it('verifies a tool that needs the internet as far as it can offline: level loads, a missing function fails', async () => {
    const calls = `node --input-type=module -e "import { Client } from 'cloudy'; console.log(await new Client().listThings())"`;
    const ok = await verify(
      contract('npm-cloudy-v1', 'npm', {
        install_cmd: 'npm install cloudy',
        execute_cmd: calls,
        requires: { network: true },
      }),
    );
    expect(ok.run.execute?.code).not.toBe(0);
    expect(ok.verdict).toMatchObject({ status: 'passed', level: 'loads' });
    expect(ok.verdict.reason).toMatch(/loaded cloudy \(Client\)/);

    const missing = `node --input-type=module -e "import { Missing } from 'cloudy'; console.log(await new Missing().run())"`;
    const bad = await verify(
      contract('npm-cloudy-v1', 'npm', {
        install_cmd: 'npm install cloudy',
        execute_cmd: missing,
        requires: { network: true },
      }),
    );
    expect(bad.verdict).toMatchObject({ status: 'failed', reason: expect.stringMatching(/cloudy has no Missing/) });

    // Exiting 0 offline does not show a task that needs credentials: still `loads`.
    const printsOffline = `node -e "const { Client } = require('cloudy'); console.log(new Client().constructor.name)"`;
    const quiet = await verify(
      contract('npm-cloudy-v1', 'npm', {
        install_cmd: 'npm install cloudy',
        execute_cmd: printsOffline,
        requires: { env: ['CLOUDY_KEY'] },
      }),
    );
    expect(quiet.run.execute?.stdout.trim()).toBe('Client');
    expect(quiet.verdict).toMatchObject({
      status: 'passed',
      level: 'loads',
      reason: expect.stringMatching(/^needs CLOUDY_KEY; its command exited 0 offline/),
    });

    // Without `requires`, the same offline failure is a plain failure.
    const undeclared = await verify(
      contract('npm-cloudy-v1', 'npm', { install_cmd: 'npm install cloudy', execute_cmd: calls }),
    );
    expect(undeclared.verdict.status).toBe('failed');
  });

  it('calls a package missing from every reachable index unverifiable when a configured index is unreachable here', async () => {
    const c = contract('pypi-elsewhere-v1', 'pypi', {
      install_cmd: 'pip install elsewhere',
      execute_cmd: 'elsewhere {file}',
    });
    // Port 9 on loopback: nothing listens, as with an index this machine has no route to.
    const withDeadIndex = { ...local.registries, pipExtraIndexes: ['http://127.0.0.1:9/simple'] };
    const run = await runContract(c, { registries: withDeadIndex, limits });
    expect(run.unreachableRegistries).toEqual(['127.0.0.1:9']);
    expect(judge(run)).toMatchObject({
      status: 'unverifiable',
      reason: expect.stringMatching(/not in the registries reachable here/),
    });
    // With only reachable indexes, a missing package is the contract's failure.
    const plain = await verify(c);
    expect(plain.verdict).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^install exited with code 1: ERROR: .*elsewhere/),
    });
  });

  it('installs a PyPI tool into a fresh virtual environment from the index in its registries', async () => {
    const { verdict, run } = await verify(
      contract('pypi-pyshout-v1', 'pypi', { install_cmd: 'pip install pyshout', execute_cmd: 'pyshout {csv_file}' }),
    );
    expect(verdict, run.install?.stderr).toMatchObject({
      status: 'passed',
      level: 'runs',
      runtime: expect.stringMatching(/^python 3\.\d+$/),
    });
    expect(run.outputs.stdout).toContain('NAME,AGE,CITY');
    expect(local.pypi.requests.some((r) => r.endsWith('.whl'))).toBe(true);
  });
});
