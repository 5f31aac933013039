// What the sandbox withholds, told apart from a broken tool by general rules: an install that fails on a download
// from a host outside the registries, a program this machine lacks, a file a tool downloads into its cache on
// first use, a run-time host the contract declares (or does not), and install limits sized for real packages.
// Packages are built here and served by the local npm registry and PyPI index on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { sandboxUnavailable } from '../../../build/verify/sandbox.ts';
import { missingDownload, missingProgram, unreachedHosts } from '../../../build/verify/withheld.ts';
import { type LocalRegistries, startLocalRegistries } from '../../helpers/local-registries.ts';
import { toolContract as contract } from '../../helpers/tool-contract.ts';

const MiB = 1024 ** 2;

// Downloads the way install scripts do: straight to the host (no proxy), which the sandbox cannot even resolve.
const download = (url: string, onError: string) => `require('https').get(${JSON.stringify(url)}, (r) => r.resume())
  .on('error', (e) => { ${onError} });\n`;

const CACHED = `#!/usr/bin/env node
const path = require('path');
const exe = path.join(require('os').homedir(), '.cache', 'tcc-browsers', 'chromium-42', 'chrome');
if (!require('fs').existsSync(exe)) { console.error("Error: Executable doesn't exist at " + exe); process.exit(1); }
`;

let local: LocalRegistries;

beforeAll(async () => {
  const missing = sandboxUnavailable();
  if (missing) throw new Error(`these tests need the sandbox: ${missing}`);
  local = await startLocalRegistries(
    [
      {
        // Like an install script fetching prebuilt binaries from a CDN: it fails without them.
        name: 'binary-fetcher',
        scripts: { postinstall: 'node fetch.js' },
        files: {
          'fetch.js': download(
            'https://binaries.cdn-example.test/v1/lib.tgz',
            'console.error(String(e)); process.exit(1);',
          ),
          'cli.js': '#!/usr/bin/env node\nconsole.log("ok");\n',
        },
        bin: { 'binary-fetcher': 'cli.js' },
      },
      {
        // An install that fails on its own (no download involved).
        name: 'broken-install',
        scripts: { postinstall: 'node -e "console.error(\'Error: unsupported platform\'); process.exit(1)"' },
        files: { 'cli.js': '#!/usr/bin/env node\n' },
        bin: { 'broken-install': 'cli.js' },
      },
      {
        // A browser download at install that fails quietly (logged, exit 0); the command then misses the browser.
        name: 'quiet-browser',
        scripts: { postinstall: 'node fetch.js' },
        files: {
          'fetch.js': download(
            'https://browsers.cdn-example.test/chrome.zip',
            'console.error("could not download the browser: " + e.message);',
          ),
          'cli.js': CACHED,
        },
        bin: { 'quiet-browser': 'cli.js' },
      },
      // Expects a browser its own setup command downloads into ~/.cache (nothing at install).
      { name: 'cached-browser', files: { 'cli.js': CACHED }, bin: { 'cached-browser': 'cli.js' } },
      {
        // Speaks through a program no registry ships (like festival).
        name: 'speaker',
        files: {
          'cli.js': `#!/usr/bin/env node
require('child_process').spawn('tcc-no-such-synth', [process.argv[2]]).on('error', (e) => { console.error('Error: ' + e.message); process.exit(1); });\n`,
        },
        bin: { speaker: 'cli.js' },
      },
      {
        // Fetches the page it is given, then a driver manifest from the internet (like selenium's manager).
        name: 'driver-fetcher',
        files: {
          'cli.js': `#!/usr/bin/env node
(async () => {
  await (await fetch(process.argv[2])).text();
  try { await fetch('https://drivers.cdn-example.test/latest.json'); }
  catch (e) { console.error('error sending request for url (https://drivers.cdn-example.test/latest.json): ' + (e.cause?.message ?? e.message)); process.exit(65); }
})();\n`,
        },
        bin: { 'driver-fetcher': 'cli.js' },
      },
      {
        // Prints the type and size of what a URL serves.
        name: 'media-probe',
        files: {
          'cli.js': `#!/usr/bin/env node
fetch(process.argv[2]).then(async (r) => console.log(r.headers.get('content-type'), (await r.arrayBuffer()).byteLength));\n`,
        },
        bin: { 'media-probe': 'cli.js' },
      },
    ],
    [
      {
        name: 'pyspeak',
        files: {
          'pyspeak/__init__.py':
            'import subprocess, sys\ndef main():\n    subprocess.run(["tcc-no-such-synth", sys.argv[1]], check=True)\n',
        },
        scripts: { pyspeak: 'pyspeak:main' },
      },
      {
        // Runs a query on the SQLite database a sqlite:/// URL names.
        name: 'pysqlq',
        files: {
          'pysqlq/__init__.py': `import json, sqlite3, sys
def main():
    path = sys.argv[1].split(':///', 1)[1]
    print(json.dumps(sqlite3.connect('file:' + path + '?mode=ro', uri=True).execute(sys.argv[2]).fetchall()))
`,
        },
        scripts: { pysqlq: 'pysqlq:main' },
      },
      {
        // A wheel holding one 300 MiB file, as machine-learning wheels do (torch's largest is 434 MiB).
        name: 'bigwheel',
        files: {
          'bigwheel/__init__.py':
            'import os\ndef main():\n    print(os.path.getsize(os.path.join(os.path.dirname(__file__), "weights.bin")))\n',
        },
        zeroFiles: { 'bigwheel/weights.bin': 300 * MiB },
        scripts: { bigwheel: 'bigwheel:main' },
      },
    ],
  );
}, 120_000);

afterAll(() => local?.close());

const verify = (c: ToolContract) => local.verify(c);
const npmTool = (name: string, execute = `npx ${name}`, extra: Record<string, unknown> = {}, props = {}) =>
  contract(`npm-${name}-v1`, 'npm', { install_cmd: `npm install ${name}`, execute_cmd: execute, ...extra }, props);

describe('reading what a failed step says', () => {
  it('finds the hosts a step could not reach, in the words of each runtime, leaving out loopback and registries', () => {
    const text = [
      'Error: getaddrinfo EAI_AGAIN api.nuget.org',
      "{'code': 65, 'message': 'error sending request for url (https://googlechromelabs.github.io/x.json)'}",
      "HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded",
      'curl: (6) Could not resolve host: downloads.example.org',
      'Error: connect ECONNREFUSED 127.0.0.1:5432 (postgres at http://localhost:5432 failed)',
      'npm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
      'For help, see https://pptr.dev/guides/configuration.',
    ].join('\n');
    expect(unreachedHosts(text, ['registry.npmjs.org:443']).sort()).toEqual([
      'api.nuget.org',
      'downloads.example.org',
      'googlechromelabs.github.io',
      'huggingface.co',
    ]);
  });

  it('names a missing program only when it is neither the command itself nor on this machine', () => {
    expect(missingProgram('Error: spawn festival ENOENT', 'node')).toBe('festival');
    expect(missingProgram('sh: 1: festival: not found')).toBe('festival');
    expect(missingProgram('launcher: cannot start mytool: spawn mytool ENOENT', 'mytool')).toBeNull();
    // A program the sandbox has (it mounts /usr/bin) was not what was missing.
    expect(missingProgram('Error: spawn sh ENOENT', 'node')).toBeNull();
    // Python names a file it could not open the same way as a program it could not start.
    const open = "FileNotFoundError: [Errno 2] No such file or directory: 'notes'";
    expect(missingProgram(open)).toBeNull();
    expect(missingProgram(`  File "/usr/lib/python3.11/subprocess.py", line 1901, in _execute_child\n${open}`)).toBe(
      'notes',
    );
  });

  it("names a missing download in the user's cache by its first two levels", () => {
    expect(
      missingDownload(
        "Error: Executable doesn't exist at /home/sandbox/.cache/ms-playwright/chromium-1243/chrome-linux/chrome",
      ),
    ).toBe('~/.cache/ms-playwright/chromium-1243');
    expect(missingDownload('wrote /home/sandbox/.cache/x/y.json')).toBeNull();
  });
});

describe('verdicts on what the sandbox withholds', { timeout: 600_000 }, () => {
  it('calls an install that fails on a download from outside the registries unverifiable, naming the host', async () => {
    const { run, verdict } = await verify(npmTool('binary-fetcher'));
    expect(run.refusedHosts).toEqual(['binaries.cdn-example.test']);
    expect(verdict.status, verdict.reason).toBe('unverifiable');
    expect(verdict.reason).toMatch(
      /^its install downloads from binaries\.cdn-example\.test, outside the package registries/,
    );
    // An install that fails by itself stays a failure.
    const broken = await verify(npmTool('broken-install'));
    expect(broken.verdict).toMatchObject({ status: 'failed', reason: expect.stringMatching(/unsupported platform/) });
  });

  it('calls a command that misses what its install could not download unverifiable (a quiet download counts)', async () => {
    const { run, verdict } = await verify(npmTool('quiet-browser'));
    expect(run.install?.code).toBe(0);
    expect(run.refusedHosts).toEqual(['browsers.cdn-example.test']);
    expect(verdict.status).toBe('unverifiable');
    expect(verdict.reason).toMatch(/^its install reached for browsers\.cdn-example\.test .*Executable doesn't exist/);
  });

  it("calls a command that expects a download in the user's cache unverifiable, naming the folder", async () => {
    const { verdict } = await verify(npmTool('cached-browser'));
    expect(verdict.status).toBe('unverifiable');
    expect(verdict.reason).toMatch(
      /^expects ~\/\.cache\/tcc-browsers\/chromium-42, which the tool fills by a download/,
    );
  });

  it('calls a command that needs a program this machine lacks unverifiable (npm and PyPI), its own program missing a failure', async () => {
    const npmSpeaker = await verify(
      npmTool('speaker', 'npx speaker {text}', {}, { text: { role: 'text', examples: ['hi'] } }),
    );
    expect(npmSpeaker.verdict.status).toBe('unverifiable');
    expect(npmSpeaker.verdict.reason).toMatch(/^needs the program tcc-no-such-synth, which this machine does not have/);
    const pySpeaker = await verify(
      contract(
        'pypi-pyspeak-v1',
        'pypi',
        { install_cmd: 'pip install pyspeak', execute_cmd: 'pyspeak {text}' },
        {
          text: { role: 'text', examples: ['hi'] },
        },
      ),
    );
    expect(pySpeaker.verdict.status, pySpeaker.run.execute?.stderr).toBe('unverifiable');
    expect(pySpeaker.verdict.reason).toMatch(/^needs the program tcc-no-such-synth/);
    const typo = await verify(
      npmTool('speaker', 'speaker-typo {text}', {}, { text: { role: 'text', examples: ['hi'] } }),
    );
    expect(typo.verdict.status).toBe('failed');
  });

  it('calls a run-time download unverifiable when the contract declares the network, a failure when it does not', async () => {
    const props = { url: { role: 'url', examples: ['https://example.com/'] } };
    const declared = await verify(
      npmTool('driver-fetcher', 'npx driver-fetcher {url}', { requires: { network: true } }, props),
    );
    expect(declared.run.runtimeHosts).toEqual(['drivers.cdn-example.test']);
    expect(declared.verdict.status).toBe('unverifiable');
    expect(declared.verdict.reason).toMatch(
      /^needs the internet at run time beyond its input: it reached for drivers\.cdn-example\.test/,
    );
    const undeclared = await verify(npmTool('driver-fetcher', 'npx driver-fetcher {url}', {}, props));
    expect(undeclared.verdict.status).toBe('failed');
    expect(undeclared.verdict.reason).toMatch(/does not declare action\.requires\.network$/);
  });
});

describe('inputs a URL names', { timeout: 300_000 }, () => {
  it('serves the sample video with its media type to a tool given a video URL', async () => {
    const { run, verdict } = await verify(
      npmTool(
        'media-probe',
        'npx media-probe {url}',
        { requires: { network: true } },
        {
          url: { role: 'url', description: 'Video page URL', examples: ['https://www.youtube.com/watch?v=x'] },
        },
      ),
    );
    expect(verdict).toMatchObject({ status: 'passed', level: 'runs' });
    expect(run.outputs.stdout).toMatch(/^video\/mp4 \d+/);
  });

  it('puts the sample database where a relative sqlite:/// URL points', async () => {
    const { run, verdict } = await verify(
      contract(
        'pypi-pysqlq-v1',
        'pypi',
        { install_cmd: 'pip install pysqlq', execute_cmd: 'pysqlq {database_url} {sql}' },
        {
          database_url: { role: 'url', examples: ['sqlite:///data/people.db'] },
          sql: { role: 'text', examples: ['SELECT name FROM people ORDER BY name'] },
        },
      ),
    );
    expect(verdict, run.execute?.stderr).toMatchObject({ status: 'passed', level: 'runs' });
    expect(JSON.parse(run.outputs.stdout)).toEqual([['Ada'], ['Alan']]);
  });
});

describe('install limits for real packages', { timeout: 300_000 }, () => {
  it('installs a wheel holding a 300 MiB file (PyPI install limits), a size the execute step may not write', async () => {
    const big = contract('pypi-bigwheel-v1', 'pypi', { install_cmd: 'pip install bigwheel', execute_cmd: 'bigwheel' });
    const installed = await verify(big);
    expect(installed.verdict, installed.run.install?.stderr.slice(-500)).toMatchObject({ status: 'passed' });
    expect(installed.run.outputs.stdout.trim()).toBe(String(300 * MiB));
    // The same size written at run time stops at the default per-file limit (256 MiB).
    const writes = await verify(
      contract('pypi-bigwheel-v1', 'pypi', {
        install_cmd: 'pip install bigwheel',
        execute_cmd: `python3 -c "f = open('out.bin', 'wb'); f.truncate(300 * 1024 * 1024); print('written')"`,
      }),
    );
    expect(writes.verdict).toMatchObject({ status: 'failed', reason: 'execute stopped at the file-size limit' });
  });

  it('counts the disk limit of the execute step from what the install left', async () => {
    // 400 MiB of work folder: the install leaves over 300 MiB; the command then writes 200 MiB more.
    const c = contract('pypi-bigwheel-v1', 'pypi', {
      install_cmd: 'pip install bigwheel',
      execute_cmd: `python3 -c "import time; f = open('out.bin', 'wb'); [f.write(bytes(1 << 20)) for _ in range(200)]; f.flush(); time.sleep(3); print('written')"`,
    });
    const { run, verdict } = await local.verify(c, { limits: { wallMs: 120_000, diskBytes: 400 * MiB } });
    expect(run.install?.code).toBe(0);
    expect(verdict, run.execute?.stderr.slice(-300)).toMatchObject({ status: 'passed', level: 'runs' });
    // Past the allowance it still stops: 450 MiB more than the install left.
    const more = contract('pypi-bigwheel-v1', 'pypi', {
      install_cmd: 'pip install bigwheel',
      execute_cmd: `python3 -c "import time; fs = [open('out%d.bin' % i, 'wb') for i in range(3)]; [f.write(bytes(150 << 20)) for f in fs]; [f.flush() for f in fs]; time.sleep(5); print('written')"`,
    });
    const stopped = await local.verify(more, { limits: { wallMs: 120_000, diskBytes: 400 * MiB } });
    expect(stopped.verdict).toMatchObject({ status: 'failed', reason: 'execute stopped at the disk limit' });
  });
});
