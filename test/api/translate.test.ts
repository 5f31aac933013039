// POST /api/v1/translate against fake GitHub, PyPI and npm registries and a real peer instance, all on
// loopback (node:http in this file; never the network), plus the upstream fetch's safety limits.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUpstreamJson, isPrivateAddress, upstreamConfig } from '../../build/translate/upstream-fetch.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { type AdminServer, settled, startAdminServer } from './admin-helpers.ts';

const FIX = path.resolve(import.meta.dirname, '../fixtures/upstreams');
const fixture = (name: string) => fsp.readFile(path.join(FIX, name), 'utf8');

interface Fake {
  url: string;
  server: http.Server;
  hits: string[];
  auth: Map<string, string>;
  trap: http.Server;
  trapHits: string[];
}

async function fakeUpstream(): Promise<Fake> {
  const readme = Buffer.from(await fixture('github-widget-cli-readme.md')).toString('base64');
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const hits: string[] = [];
  const auth = new Map<string, string>();
  // Another host (localhost, not 127.0.0.1) that a redirect points at: it must never be asked.
  const trapHits: string[] = [];
  const trap = http.createServer((req, res) => {
    trapHits.push(req.url ?? '');
    res.end('{}');
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  const trapUrl = `http://localhost:${(trap.address() as AddressInfo).port}`;
  const routes: Record<string, (res: http.ServerResponse) => void | Promise<void>> = {
    '/repos/acme/widget-cli': async (res) => json(res, 200, await fixture('github-widget-cli.json')),
    '/repos/acme/widget-cli/readme': (res) =>
      json(res, 200, { name: 'README.md', encoding: 'base64', content: readme }),
    '/repos/acme/widget-cli/releases/latest': (res) => json(res, 200, { tag_name: 'v2.1.0' }),
    '/repos/openai/whisper': (res) =>
      json(res, 200, {
        name: 'whisper',
        description: 'Robust Speech Recognition via Large-Scale Weak Supervision',
        topics: [],
        license: { spdx_id: 'NOASSERTION' },
      }),
    '/repos/acme/broken': (res) => json(res, 500, { message: 'oops' }),
    '/repos/acme/slow': () => {
      /* never answers */
    },
    '/repos/acme/elsewhere': (res) => {
      res.writeHead(302, { location: `${trapUrl}/repos/acme/elsewhere` });
      res.end();
    },
    '/pypi/tinycache/json': (res) => {
      res.writeHead(301, { location: '/pypi/TinyCache/json' });
      res.end();
    },
    '/pypi/TinyCache/json': async (res) => json(res, 200, await fixture('pypi-tinycache.json')),
    '/pypi/hugepkg/json': (res) => {
      // Chunked, no length: the cap must be enforced while streaming.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 24 && res.write(chunk)) sent++;
        if (sent < 24) res.once('drain', pump);
        else res.end();
      };
      pump();
    },
    '/@acme%2fcowsay-plus': async (res) => json(res, 200, await fixture('npm-cowsay-plus.json')),
    '/downloads/point/last-month/@acme/cowsay-plus': (res) =>
      json(res, 200, { downloads: 1_519_211, package: '@acme/cowsay-plus' }),
    '/bigpkg': (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(6 * 1024 * 1024) });
      res.end(Buffer.alloc(6 * 1024 * 1024, 0x20));
    },
    '/bigpkg/latest': (res) =>
      json(res, 200, { name: 'bigpkg', version: '9.9.9', description: 'Large document', license: 'MIT' }),
  };
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.headers.authorization) auth.set(req.url ?? '', req.headers.authorization);
    const route = routes[req.url ?? ''];
    if (route) void route(res);
    else json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits, auth, trap, trapHits };
}

describe('POST /api/v1/translate', () => {
  let up: Fake;
  let peer: TestServer;
  let s: AdminServer;
  const translate = (url: unknown) => s.admin('POST', '/api/v1/translate', url === undefined ? undefined : { url });

  beforeAll(async () => {
    up = await fakeUpstream();
    peer = await startTestServer({ apis: false });
    Object.assign(process.env, {
      GITHUB_API_URL: up.url,
      PYPI_URL: up.url,
      NPM_REGISTRY_URL: `${up.url}/`,
      NPM_DOWNLOADS_URL: up.url,
      PEER_CATALOG_HOSTS: new URL(peer.url).host,
      ALLOW_PRIVATE_UPSTREAMS: '1',
      UPSTREAM_TIMEOUT_MS: '1500',
      GITHUB_TOKEN: 'gh-test-token',
    });
    s = await startAdminServer({ apis: false, ip: '10.9.0.4' });
  });
  afterAll(async () => {
    await settled(s);
    await Promise.all([
      s.cleanup(),
      peer.cleanup(),
      new Promise((r) => {
        up.server.closeAllConnections();
        up.server.close(r);
      }),
      new Promise((r) => up.trap.close(r)),
    ]);
  });

  it('translates a GitHub repository: metadata, licence, release version, install and usage from the README', async () => {
    const r = await translate('https://github.com/acme/widget-cli');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', aid: 'github-acme-widget-cli-v1', created: true, source: 'github' });
    expect(r.body.contract).toEqual({
      identity: {
        aid: 'github-acme-widget-cli-v1',
        name: 'widget-cli',
        version: '2.1.0',
        task: 'Render Markdown pages into widgets from the command line',
        tags: ['markdown', 'cli', 'static-site'],
        platform: 'github',
        license: 'MIT',
      },
      logic: { input_schema: { type: 'any' }, output_schema: { type: 'any' } },
      trust: { reliability_score: 0.5, latency_ms: null, status: 'active' },
      action: {
        source_url: 'https://github.com/acme/widget-cli',
        install_cmd: 'cargo install widget-cli',
        execute_cmd: 'widget-cli render page.md --out widget.html',
      },
      record: { verified: true, reliability_calculated_at: null },
    });
    // GITHUB_TOKEN goes to the GitHub API only.
    expect(up.auth.get('/repos/acme/widget-cli')).toBe('Bearer gh-test-token');
    const file = JSON.parse(
      await fsp.readFile(path.join(s.catalogDir, 'tools/github-acme-widget-cli-v1.json'), 'utf8'),
    );
    expect(file).toEqual(r.body.contract);
    expect((await s.json('/api/v1/tools/github-acme-widget-cli-v1')).status).toBe(200);
  });

  it('updates the existing contract of the same source instead of adding a twin, keeping what the source does not show', async () => {
    const before = (await s.json('/api/v1/tools/github-openai-whisper-v1')).body;
    const r = await translate('https://github.com/openai/whisper.git');
    expect(r.body).toMatchObject({ aid: 'github-openai-whisper-v1', created: false });
    const c = r.body.contract;
    expect(c.identity.task).toBe('Robust Speech Recognition via Large-Scale Weak Supervision');
    expect(c.identity.license).toBe(before.identity.license);
    expect(c.trust).toEqual({
      reliability_score: before.trust.reliability_score,
      latency_ms: before.trust.latency_ms,
      status: before.trust.status,
    });
    expect(c.logic).toEqual(before.logic);
    expect(c.action.install_cmd).toMatch(/^pip install/);
  });

  it('translates a PyPI project (following a same-host redirect), licence from the classifier', async () => {
    const r = await translate('https://pypi.org/project/tinycache/');
    expect(r.status).toBe(200);
    expect(r.body.contract).toMatchObject({
      identity: {
        aid: 'pypi-tinycache-v1',
        name: 'TinyCache',
        version: '1.2.0',
        task: 'A tiny memoizing cache for Python functions',
        tags: ['cache', 'memoize', 'functools'],
        platform: 'pypi',
        license: 'MIT',
      },
      action: {
        source_url: 'https://pypi.org/project/TinyCache/',
        install_cmd: 'pip install TinyCache~=1.0',
        execute_cmd: null,
      },
    });
  });

  it('translates an npm package from its registry document: latest version, licence object, bin', async () => {
    const r = await translate('https://www.npmjs.com/package/@acme/cowsay-plus');
    expect(r.status).toBe(200);
    expect(r.body.contract).toMatchObject({
      identity: {
        aid: 'npm-acme-cowsay-plus-v1',
        name: '@acme/cowsay-plus',
        version: '3.0.1',
        task: 'Cows that say things, with speech bubbles',
        tags: ['cow', 'ascii-art', 'fun'],
        platform: 'npm',
        license: 'ISC',
      },
      action: {
        source_url: 'https://www.npmjs.com/package/@acme/cowsay-plus',
        install_cmd: 'npm install @acme/cowsay-plus@3',
        execute_cmd: 'npx @acme/cowsay-plus',
      },
    });
    // Popularity from the downloads API: 1,519,211 a month is the corpus's 80th percentile.
    expect(r.body.contract.trust.popularity).toBe(0.8);
    // A package document over 5 MB: the small latest-version document instead.
    const big = await translate('https://www.npmjs.com/package/bigpkg');
    expect(big.body.contract.identity).toMatchObject({ aid: 'npm-bigpkg-v1', version: '9.9.9', license: 'MIT' });
    // No download figure (the downloads API answers 404): popularity stays unknown, the translation works.
    expect(big.body.contract.trust.popularity).toBeUndefined();
    expect([...up.auth.keys()].every((p) => p.startsWith('/repos/'))).toBe(true);
  });

  it('copies a contract from a peer instance of this service as platform catalog', async () => {
    const url = `${peer.url}/api/v1/tools/npm-axios-v1`;
    const original = (await peer.json('/api/v1/tools/npm-axios-v1')).body;
    const r = await translate(url);
    expect(r.status).toBe(200);
    expect(r.body.contract).toEqual({
      identity: { ...original.identity, aid: 'catalog-npm-axios-v1', platform: 'catalog' },
      logic: original.logic,
      trust: {
        reliability_score: original.trust.reliability_score,
        latency_ms: original.trust.latency_ms,
        status: original.trust.status,
      },
      action: { source_url: url, install_cmd: null, execute_cmd: null },
      record: { verified: true, reliability_calculated_at: null },
    });
  });

  it('answers 422 for unsupported URLs and hosts outside the allow-list, before fetching anything', async () => {
    const before = up.hits.length;
    for (const url of [
      'https://gitlab.com/acme/widget',
      'ftp://github.com/a/b',
      'https://github.com/acme',
      'not a url',
      'https://catalog.evil.example/api/v1/tools/npm-axios-v1',
      `${peer.url}/elsewhere`,
    ]) {
      const r = await translate(url);
      expect([url, r.status, r.body.detail[0].loc]).toEqual([url, 422, ['body', 'url']]);
    }
    expect((await translate(undefined)).status).toBe(422);
    expect((await s.admin('POST', '/api/v1/translate', { url: 5 })).status).toBe(422);
    expect(up.hits.length).toBe(before);
  });

  it('maps upstream failures: 404 naming the upstream, 502 for errors, timeouts, foreign redirects and oversized answers', async () => {
    const missing = await translate('https://github.com/acme/missing');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/^GitHub \(127\.0\.0\.1:\d+\) has no such entry/);
    expect((await translate('https://pypi.org/project/nope')).body.detail).toMatch(/^PyPI/);
    for (const [url, why] of [
      ['https://github.com/acme/broken', /answered 500/],
      ['https://github.com/acme/slow', /did not answer within 1\.5 s/],
      ['https://github.com/acme/elsewhere', /redirected elsewhere/],
      ['https://pypi.org/project/hugepkg', /more than 5 MB/],
    ] as const) {
      const r = await translate(url);
      expect([url, r.status]).toEqual([url, 502]);
      expect(r.body.detail).toMatch(why);
    }
    expect(up.hits).toContain('/repos/acme/elsewhere');
    expect(up.trapHits).toEqual([]);
  });
});

describe('upstream fetch safety', () => {
  let up: Fake;
  beforeAll(async () => {
    up = await fakeUpstream();
  });
  afterAll(() =>
    Promise.all([
      new Promise((r) => {
        up.server.closeAllConnections();
        up.server.close(r);
      }),
      new Promise((r) => up.trap.close(r)),
    ]),
  );

  it('refuses loopback and private addresses unless ALLOW_PRIVATE_UPSTREAMS, by literal and by DNS answer', async () => {
    const strict = { ...upstreamConfig({}), timeoutMs: 2000 };
    const port = new URL(up.url).port;
    for (const url of [
      `${up.url}/repos/acme/widget-cli`,
      `http://localhost:${port}/repos/acme/widget-cli`,
      `http://[::1]:${port}/x`,
    ]) {
      await expect(fetchUpstreamJson(url, strict, 'GitHub')).rejects.toMatchObject({
        status: 502,
        message: expect.stringMatching(/not a public address/),
      });
    }
    const loose = { ...strict, allowPrivate: true };
    await expect(
      fetchUpstreamJson(`http://localhost:${port}/repos/acme/widget-cli`, loose, 'GitHub'),
    ).resolves.toMatchObject({ name: 'widget-cli' });
  });

  it('answers 502 when the upstream is down', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const cfg = { ...upstreamConfig({}), allowPrivate: true };
    await expect(fetchUpstreamJson(`http://127.0.0.1:${port}/pypi/x/json`, cfg, 'PyPI')).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/^PyPI \(127\.0\.0\.1:\d+\) is unreachable \(ECONNREFUSED\)/),
    });
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '224.0.0.1',
      'nonsense',
    ]) {
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    }
    for (const a of ['140.82.112.3', '151.101.1.63', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  it('defaults to the public registries', () => {
    expect(upstreamConfig({})).toMatchObject({
      githubApi: 'https://api.github.com',
      pypi: 'https://pypi.org',
      npmRegistry: 'https://registry.npmjs.org',
      peerHosts: [],
      allowPrivate: false,
      timeoutMs: 10_000,
      maxBytes: 5 * 1024 * 1024,
    });
  });
});
