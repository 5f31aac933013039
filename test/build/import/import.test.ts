// npm run import against fake npm, PyPI, GitHub and MCP registries on loopback (test/helpers/fake-json-registry.ts):
// a real child process per run, real catalog files, the real file verification queue.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { validateContract } from '../../../build/model/validate-contract.ts';
import { createFileVerifyQueue } from '../../../build/verify/queue/file.ts';
import { type FakeJsonRegistry, startFakeJsonRegistry } from '../../helpers/fake-json-registry.ts';
import { childEnv, nodeArgs, runTs } from '../../helpers/run-ts.ts';

const CLI = 'build/cli/import.ts';

interface Summary {
  total: number;
  new: string[];
  updated: string[];
  unchanged: string[];
  failed: { key: string; reason: string }[];
  resumed: number;
  queued: number;
  fetch: { requests: number; notModified: number; retries: number };
}

const packument = (name: string, version: string, extra: Record<string, unknown> = {}) => ({
  _id: name,
  name,
  'dist-tags': { latest: version },
  versions: { [version]: { name, version, license: 'MIT', ...extra } },
});
const npmPath = (name: string) => (name.startsWith('@') ? `/${name.replace('/', '%2f')}` : `/${name}`);

let fake: FakeJsonRegistry;
let dir: string;
let catalog: string;
let dataDir: string;

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runTs(
    CLI,
    [
      ...args,
      '--catalog',
      catalog,
      '--cache',
      path.join(dataDir, 'cache'),
      '--state',
      path.join(dataDir, 'import.state'),
      '--json',
    ],
    {
      env: {
        DATA_DIR: dataDir,
        NPM_REGISTRY_URL: fake.url,
        NPM_DOWNLOADS_URL: fake.url,
        PYPI_URL: fake.url,
        GITHUB_API_URL: fake.url,
        MCP_REGISTRY_URL: fake.url,
        ...env,
      },
    },
  );
const summaryOf = (r: { code: number; stdout: string; stderr: string }): Summary => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Summary;
};
const contract = async (aid: string): Promise<ToolContract> =>
  JSON.parse(await fsp.readFile(path.join(catalog, 'tools', `${aid}.json`), 'utf8'));

beforeAll(async () => {
  fake = await startFakeJsonRegistry();
});
afterAll(() => fake.close());
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'import-'));
  catalog = path.join(dir, 'catalog');
  dataDir = path.join(dir, 'data');
  await fsp.mkdir(path.join(catalog, 'tools'), { recursive: true });
  fake.requests.length = 0;
  return () => fsp.rm(dir, { recursive: true, force: true });
});

describe('npm run import --from npm', () => {
  beforeAll(() => {
    fake.set(
      npmPath('alpha-cli'),
      packument('alpha-cli', '1.4.0', {
        description: 'Turns CSV files into charts',
        keywords: ['csv', 'chart'],
        bin: { 'alpha-cli': 'cli.js' },
        engines: { node: '>=18.17.0' },
      }),
    );
    fake.set('/downloads/point/last-month/alpha-cli', { downloads: 1_519_211 });
    fake.set(
      npmPath('beta-lib'),
      packument('beta-lib', '0.9.0', { description: 'Old helpers', deprecated: 'use gamma-lib instead' }),
    );
    fake.set(
      npmPath('@acme/mcp-weather'),
      packument('@acme/mcp-weather', '1.2.0', {
        description: 'Weather forecasts for agents',
        keywords: ['mcp', 'weather'],
        bin: { 'mcp-weather': 'dist/index.js' },
        dependencies: { '@modelcontextprotocol/sdk': '^1.20.0' },
        mcpName: 'io.github.acme/weather',
        engines: { node: '^20.10 || >=22' },
      }),
    );
  });

  it('imports new packages: version, SPDX licence, popularity, runtime, deprecation, an MCP server; queues them', async () => {
    const s = summaryOf(await run(['--from', 'npm', 'alpha-cli', 'beta-lib', '@acme/mcp-weather']));
    expect(s).toMatchObject({ total: 3, updated: [], unchanged: [], failed: [], queued: 3 });
    expect(s.new.sort()).toEqual(['npm-acme-mcp-weather-v1', 'npm-alpha-cli-v1', 'npm-beta-lib-v1']);
    const alpha = await contract('npm-alpha-cli-v1');
    expect(validateContract(alpha)).toEqual([]);
    expect(alpha.identity).toMatchObject({ version: '1.4.0', license: 'MIT', task: 'Turns CSV files into charts' });
    expect(alpha.action).toMatchObject({
      install_cmd: 'npm install alpha-cli@1',
      execute_cmd: 'npx alpha-cli',
      source_url: 'https://www.npmjs.com/package/alpha-cli',
      requires: { runtime: { node: '>=18.17' } },
    });
    expect(alpha.trust).toMatchObject({ status: 'active', popularity: 0.8 });
    expect(alpha.record?.popularity_source).toMatch(/1519211 downloads last month/);
    expect((await contract('npm-beta-lib-v1')).trust.status).toBe('deprecated');
    // A library installs on the release line it was described (and is verified) on; below 1.0 a minor is a line.
    expect((await contract('npm-beta-lib-v1')).action.install_cmd).toBe('npm install beta-lib@0.9');
    const mcp = await contract('npm-acme-mcp-weather-v1');
    expect(validateContract(mcp)).toEqual([]);
    expect(mcp.identity.kind).toBe('mcp_server');
    expect(mcp.action).toMatchObject({
      install_cmd: 'npm install @acme/mcp-weather@1.2.0',
      execute_cmd: 'npx @acme/mcp-weather',
      requires: { runtime: { node: '>=20.10' } },
    });
    expect(mcp.logic.mcp).toEqual({
      transport: 'stdio',
      registry_name: 'io.github.acme/weather',
      tools_read_at: null,
      tools: [],
    });
    const jobs = await createFileVerifyQueue(dataDir).pending();
    expect(jobs.map((j) => [j.aid, j.reason]).sort()).toEqual([
      ['npm-acme-mcp-weather-v1', 'import'],
      ['npm-alpha-cli-v1', 'import'],
      ['npm-beta-lib-v1', 'import'],
    ]);
    // The state file of a finished run is gone: nothing to resume.
    await expect(fsp.stat(path.join(dataDir, 'import.state'))).rejects.toThrow();
  });

  it('a re-run sends conditional requests, gets 304s and reports everything unchanged, queuing nothing', async () => {
    summaryOf(await run(['--from', 'npm', 'alpha-cli', 'beta-lib']));
    const first = fake.requests.length;
    const s = summaryOf(await run(['--from', 'npm', 'alpha-cli', 'beta-lib']));
    expect(s).toMatchObject({ new: [], updated: [], failed: [], queued: 0 });
    expect(s.unchanged.sort()).toEqual(['npm-alpha-cli-v1', 'npm-beta-lib-v1']);
    const second = fake.requests.slice(first);
    const packuments = second.filter((r) => r.path === '/alpha-cli' || r.path === '/beta-lib');
    expect(packuments).toHaveLength(2);
    for (const r of packuments) expect(r.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
    expect(s.fetch.notModified).toBe(3); // two packuments and alpha's downloads figure
    expect(await createFileVerifyQueue(dataDir).pending()).toHaveLength(2);
  }, 180_000);

  it('keeps hand-written task, tags and commands on update; --overwrite replaces them', async () => {
    summaryOf(await run(['--from', 'npm', 'alpha-cli']));
    const file = path.join(catalog, 'tools', 'npm-alpha-cli-v1.json');
    const edited = await contract('npm-alpha-cli-v1');
    edited.identity.task = 'Draw a bar chart from a CSV file';
    edited.identity.tags = ['chart', 'csv', 'plot'];
    edited.action.execute_cmd = 'npx alpha-cli {input_file} --out {output_file}';
    await fsp.writeFile(file, JSON.stringify(edited, null, 2));
    fake.set(
      npmPath('alpha-cli'),
      packument('alpha-cli', '2.0.0', {
        description: 'Turns CSV and TSV files into charts',
        keywords: ['csv'],
        bin: { 'alpha-cli': 'cli.js' },
        engines: { node: '>=20' },
        license: 'Apache-2.0',
      }),
    );
    const s = summaryOf(await run(['--from', 'npm', 'alpha-cli']));
    expect(s.updated).toEqual(['npm-alpha-cli-v1']);
    const kept = await contract('npm-alpha-cli-v1');
    expect(kept.identity).toMatchObject({
      version: '2.0.0',
      license: 'Apache-2.0',
      task: 'Draw a bar chart from a CSV file',
      tags: ['chart', 'csv', 'plot'],
    });
    expect(kept.action.execute_cmd).toBe('npx alpha-cli {input_file} --out {output_file}');
    expect(kept.action.requires).toEqual({ runtime: { node: '>=20' } });
    const o = summaryOf(await run(['--from', 'npm', 'alpha-cli', '--overwrite']));
    expect(o.updated).toEqual(['npm-alpha-cli-v1']);
    const replaced = await contract('npm-alpha-cli-v1');
    expect(replaced.identity).toMatchObject({ task: 'Turns CSV and TSV files into charts', tags: ['csv'] });
    expect(replaced.action.execute_cmd).toBe('npx alpha-cli');
  }, 180_000);

  it('waits as Retry-After asks after a 429, then succeeds', async () => {
    fake.set(npmPath('gamma-lib'), packument('gamma-lib', '3.0.0', { description: 'Gamma' }));
    fake.script(npmPath('gamma-lib'), [{ status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down' } }]);
    const s = summaryOf(await run(['--from', 'npm', 'gamma-lib', '--retry-base-ms', '1']));
    expect(s.new).toEqual(['npm-gamma-lib-v1']);
    expect(s.fetch.retries).toBe(1);
    const hits = fake.hits('/gamma-lib');
    expect(hits).toHaveLength(2);
    expect((hits[1] as { at: number }).at - (hits[0] as { at: number }).at).toBeGreaterThanOrEqual(950);
  });

  it('reports a 500 that outlasts the retries as failed with the reason, and imports the rest', async () => {
    fake.fail(npmPath('delta-lib'), { status: 500, body: { error: 'down' } });
    const s = summaryOf(
      await run([
        '--from',
        'npm',
        'delta-lib',
        'alpha-cli',
        'Not A Name',
        '--retries',
        '2',
        '--retry-base-ms',
        '5',
        // A host that does not resolve is not retried; popularity stays unknown and the import goes on.
        '--downloads-url',
        'http://downloads.invalid',
      ]),
    );
    expect(s.new).toEqual(['npm-alpha-cli-v1']);
    expect([...s.failed].sort((a, b) => (a.key < b.key ? -1 : 1))).toEqual([
      { key: 'Not A Name', reason: '"Not A Name" is not an npm package name' },
      {
        key: 'delta-lib',
        reason: expect.stringMatching(/^npm registry \(127\.0\.0\.1:\d+\) answered 500 \(after 3 attempts\)$/),
      },
    ]);
    expect(fake.hits('/delta-lib')).toHaveLength(3);
    expect(s.fetch.retries).toBe(2);
    expect((await contract('npm-alpha-cli-v1')).trust.popularity).toBeUndefined();
    await expect(fsp.stat(path.join(catalog, 'tools', 'npm-delta-lib-v1.json'))).rejects.toThrow();
  });

  it('resumes an interrupted run where it stopped', async () => {
    const names = ['r1', 'r2', 'r3', 'r4', 'r5'];
    for (const n of names) fake.set(`/${n}`, packument(n, '1.0.0', { description: `Package ${n}` }));
    const release = fake.hold('/r4');
    const state = path.join(dataDir, 'import.state');
    const [cmd, argv] = nodeArgs(CLI, [
      '--from',
      'npm',
      ...names,
      '--concurrency',
      '1',
      '--catalog',
      catalog,
      '--state',
      state,
      '--cache',
      path.join(dataDir, 'cache'),
    ]);
    const child = spawn(cmd, argv, {
      env: childEnv({ DATA_DIR: dataDir, NPM_REGISTRY_URL: fake.url, NPM_DOWNLOADS_URL: fake.url }),
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.on('exit', r));
    // Wait for the held request: by then r1-r3 are finished and recorded.
    await expect.poll(() => fake.hits('/r4').length, { timeout: 60_000, interval: 50 }).toBe(1);
    const lines = (await fsp.readFile(state, 'utf8')).trim().split('\n');
    expect(lines.slice(1).map((l) => JSON.parse(l).key)).toEqual(['r1', 'r2', 'r3']);
    child.kill('SIGKILL');
    await exited;
    release();
    const before = fake.requests.length;
    const s = summaryOf(await run(['--from', 'npm', ...names, '--concurrency', '1']));
    expect(s).toMatchObject({ total: 5, resumed: 3, failed: [] });
    expect(s.new.sort()).toEqual(['npm-r1-v1', 'npm-r2-v1', 'npm-r3-v1', 'npm-r4-v1', 'npm-r5-v1']);
    const again = fake.requests.slice(before).map((r) => r.path);
    expect(again).toContain('/r4');
    expect(again.filter((p) => ['/r1', '/r2', '/r3'].includes(p))).toEqual([]);
    expect((await createFileVerifyQueue(dataDir).pending()).map((j) => j.aid).sort()).toEqual(
      names.map((n) => `npm-${n}-v1`),
    );
  }, 120_000);

  it('--top N picks the most downloaded npm packages of the corpus, never listing the registry', async () => {
    const { gzipSync } = await import('node:zlib');
    const corpus = path.join(dir, 'corpus.jsonl.gz');
    const lines = [
      { registry: 'npm', name: 'alpha-cli', monthly_downloads: 900 },
      { registry: 'pypi', name: 'somepy', download_rank: 1 },
      { registry: 'npm', name: 'beta-lib', monthly_downloads: 500 },
      { registry: 'npm', name: 'rarely-used', monthly_downloads: 3 },
    ];
    await fsp.writeFile(corpus, gzipSync(lines.map((l) => JSON.stringify(l)).join('\n')));
    const s = summaryOf(await run(['--from', 'npm', '--top', '2'], { CORPUS_PATH: corpus }));
    expect(s.new.sort()).toEqual(['npm-alpha-cli-v1', 'npm-beta-lib-v1']);
    expect(fake.requests.map((r) => r.path)).not.toContain('/rarely-used');
  });

  it('explains usage errors with exit 2', async () => {
    for (const args of [
      ['--from', 'cpan', 'x'],
      ['--from', 'npm'],
      ['--from', 'github', '--top', '3'],
      ['--from', 'npm', '--top', 'x'],
    ]) {
      const r = await run(args);
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.stderr).toMatch(/npm run import -- --help/);
    }
    const help = await runTs(CLI, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run import/);
  }, 180_000);
});

describe('npm run import --from pypi and --from github', () => {
  const FIX = path.resolve(import.meta.dirname, '../../fixtures/upstreams');
  beforeAll(async () => {
    const tiny = JSON.parse(await fsp.readFile(path.join(FIX, 'pypi-tinycache.json'), 'utf8'));
    tiny.info.requires_python = '>=3.9, <4';
    tiny.info.classifiers.push('Development Status :: 7 - Inactive');
    fake.set('/pypi/tinycache/json', tiny);
    fake.set(
      '/repos/acme/widget-cli',
      JSON.parse(await fsp.readFile(path.join(FIX, 'github-widget-cli.json'), 'utf8')),
    );
    const readme = await fsp.readFile(path.join(FIX, 'github-widget-cli-readme.md'));
    fake.set('/repos/acme/widget-cli/readme', { encoding: 'base64', content: readme.toString('base64') });
    fake.set('/repos/acme/widget-cli/releases/latest', { tag_name: 'v2.1.0' });
  });

  it('imports a PyPI project with its Python minimum and deprecation, and a GitHub repository', async () => {
    const p = summaryOf(await run(['--from', 'pypi', 'tinycache']));
    expect(p.new).toEqual(['pypi-tinycache-v1']);
    const tiny = await contract('pypi-tinycache-v1');
    expect(validateContract(tiny)).toEqual([]);
    expect(tiny.identity).toMatchObject({ name: 'TinyCache', version: '1.2.0', license: 'MIT' });
    expect(tiny.action.requires).toEqual({ runtime: { python: '>=3.9' } });
    // pip's compatible-release clause keeps the install on the 1.x line it was described (and is verified) on.
    expect(tiny.action.install_cmd).toBe('pip install TinyCache~=1.0');
    expect(tiny.trust.status).toBe('deprecated');
    const g = summaryOf(await run(['--from', 'github', 'acme/widget-cli', 'acme/absent']));
    expect(g.new).toEqual(['github-acme-widget-cli-v1']);
    expect(g.failed).toEqual([{ key: 'acme/absent', reason: expect.stringMatching(/^GitHub .* has no such entry/) }]);
    expect((await contract('github-acme-widget-cli-v1')).action).toMatchObject({
      install_cmd: 'cargo install widget-cli',
      execute_cmd: 'widget-cli render page.md --out widget.html',
    });
  }, 180_000);
});

describe('npm run import --from mcp-registry', () => {
  const weather = {
    name: 'io.github.acme/weather',
    description: 'Forecasts and alerts for any city',
    version: '1.2.0',
    repository: { url: 'https://github.com/acme/mcp-weather', source: 'github' },
    packages: [
      {
        registryType: 'npm',
        identifier: '@acme/mcp-weather',
        version: '1.2.0',
        transport: { type: 'stdio' },
        environmentVariables: [
          { name: 'WEATHER_API_KEY', description: 'Key for the forecast API', isRequired: true, isSecret: true },
          {
            name: 'WEATHER_UNITS',
            description: 'metric or imperial',
            format: 'string',
            default: 'metric',
            choices: ['metric', 'imperial'],
          },
          { name: 'WEATHER_CACHE_DIR', format: 'filepath', placeholder: '~/.cache/weather' },
          { name: 'WEATHER_RETRIES', format: 'integer' },
        ],
        packageArguments: [
          { type: 'named', name: '--units', value: 'metric' },
          { type: 'positional', valueHint: 'city' },
        ],
      },
    ],
  };
  const notes = {
    name: 'io.github.acme/notes',
    description: 'Notes an agent can keep',
    version: '0.3.0',
    packages: [{ registryType: 'pypi', identifier: 'mcp-notes', version: '0.3.0', transport: { type: 'stdio' } }],
  };
  const remote = {
    name: 'com.example/search',
    description: 'Hosted web search',
    version: '2025.11.1',
    repository: { url: 'https://github.com/example/search-mcp', source: 'github' },
    remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/search' }],
  };
  const meta = (status = 'active') => ({
    'io.modelcontextprotocol.registry/official': { status, isLatest: true, publishedAt: '2026-10-01T00:00:00Z' },
  });

  beforeAll(() => {
    // The registry answers pages of at most two servers, whatever limit is asked.
    fake.set('/v0.1/servers?limit=3&version=latest', {
      servers: [
        { server: weather, _meta: meta() },
        { server: notes, _meta: meta() },
      ],
      metadata: { nextCursor: 'io.github.acme/notes:0.3.0', count: 2 },
    });
    fake.set(`/v0.1/servers?limit=1&version=latest&cursor=${encodeURIComponent('io.github.acme/notes:0.3.0')}`, {
      servers: [{ server: remote, _meta: meta('deprecated') }],
      metadata: { nextCursor: null, count: 1 },
    });
    fake.set(
      npmPath('@acme/mcp-weather'),
      packument('@acme/mcp-weather', '1.2.0', {
        description: 'Weather MCP server',
        keywords: ['mcp'],
        bin: { 'mcp-weather': 'dist/index.js' },
        dependencies: { '@modelcontextprotocol/sdk': '^1.20.0' },
      }),
    );
    fake.set('/pypi/mcp-notes/json', {
      info: {
        name: 'mcp-notes',
        version: '0.3.0',
        summary: 'Notes MCP server',
        license_expression: 'Apache-2.0',
        requires_python: '>=3.10',
        requires_dist: ['mcp>=1.2', 'pytest; extra == "test"'],
      },
    });
  });

  it('pages through the registry list into mcp_server contracts that validate', async () => {
    const s = summaryOf(await run(['--from', 'mcp-registry', '--top', '3']));
    expect(s).toMatchObject({ total: 3, failed: [], queued: 3 });
    expect(s.new.sort()).toEqual(['mcp-com.example-search-v1', 'npm-acme-mcp-weather-v1', 'pypi-mcp-notes-v1']);
    const pages = fake.requests.filter((r) => r.path.startsWith('/v0.1/servers'));
    expect(pages.map((r) => new URL(r.path, fake.url).searchParams.get('cursor'))).toEqual([
      null,
      'io.github.acme/notes:0.3.0',
    ]);
    const w = await contract('npm-acme-mcp-weather-v1');
    const n = await contract('pypi-mcp-notes-v1');
    const r = await contract('mcp-com.example-search-v1');
    for (const c of [w, n, r]) {
      expect(validateContract(c)).toEqual([]);
      expect(c.identity.kind).toBe('mcp_server');
      expect(c.logic.mcp).toMatchObject({ tools: [], tools_read_at: null });
    }
    expect(w.identity).toMatchObject({ version: '1.2.0', license: 'MIT', task: 'Forecasts and alerts for any city' });
    expect(w.action).toMatchObject({
      install_cmd: 'npm install @acme/mcp-weather@1.2.0',
      execute_cmd: 'npx @acme/mcp-weather --units metric',
      requires: { env: ['WEATHER_API_KEY'] },
    });
    expect(w.logic.mcp).toEqual({
      transport: 'stdio',
      registry_name: 'io.github.acme/weather',
      arguments: ['--units', 'metric'],
      env_vars: [
        { name: 'WEATHER_API_KEY', description: 'Key for the forecast API', is_required: true, is_secret: true },
        {
          name: 'WEATHER_UNITS',
          description: 'metric or imperial',
          is_required: false,
          is_secret: false,
          format: 'string',
          default: 'metric',
          choices: ['metric', 'imperial'],
        },
        // The value's shape is kept (a verifier shapes its placeholder by it); an unknown format is dropped.
        {
          name: 'WEATHER_CACHE_DIR',
          is_required: false,
          is_secret: false,
          format: 'filepath',
          placeholder: '~/.cache/weather',
        },
        { name: 'WEATHER_RETRIES', is_required: false, is_secret: false },
      ],
      tools_read_at: null,
      tools: [],
    });
    expect(n.identity).toMatchObject({ platform: 'pypi', license: 'Apache-2.0', version: '0.3.0' });
    expect(n.action).toMatchObject({
      install_cmd: 'pip install mcp-notes==0.3.0',
      execute_cmd: 'mcp-notes',
      requires: { runtime: { python: '>=3.10' } },
    });
    expect(r.logic.mcp).toMatchObject({
      transport: 'streamable-http',
      url: 'https://mcp.example.com/search',
      registry_name: 'com.example/search',
    });
    expect(r.trust.status).toBe('deprecated');
    expect(r.action).toMatchObject({ install_cmd: null, execute_cmd: null, requires: { network: true } });
    // Imported by name, the same server converges on the same contract: nothing changes.
    fake.set(`/v0.1/servers/${encodeURIComponent(weather.name)}/versions/latest`, { server: weather, _meta: meta() });
    const again = summaryOf(await run(['--from', 'mcp-registry', weather.name]));
    expect(again.unchanged).toEqual(['npm-acme-mcp-weather-v1']);
  }, 180_000);
});
