// Operator papercuts, through the real commands: --help on every command (exit 0, nothing done), the
// validator on a catalog root and on paths without contracts, API_ORIGIN in the CDN's _redirects, a busy
// port in one line, and `npm start` rebuilding a dist/ made for another BASE_URL.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { childEnv, nodeArgs, ROOT, runTs } from '../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

describe('commands', () => {
  let cat: TempCatalog;
  beforeAll(async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1')]);
  });
  afterAll(async () => {
    await cat?.cleanup();
  });

  it('--help on every command prints its usage and exits 0 without doing anything', async () => {
    const scripts = [
      'api/main.ts',
      ...(await fsp.readdir(path.join(ROOT, 'build/cli')))
        .filter((f) => f.endsWith('.ts') && f !== 'help.ts')
        .map((f) => `build/cli/${f}`),
    ];
    expect(scripts.length).toBeGreaterThan(10);
    const results = await Promise.all(
      scripts.map(async (s) => ({
        s,
        r: await runTs(s, ['--help'], { env: { DIST_DIR: cat.distDir, CATALOG_DIR: cat.catalogDir } }),
      })),
    );
    for (const { s, r } of results) {
      expect(r.code, `${s}: ${r.stderr}`).toBe(0);
      expect(r.stdout, s).toMatch(/^usage: /);
    }
    await expect(fsp.access(cat.distDir)).rejects.toThrow(); // build --help built nothing
  }, 240_000);

  it('validate accepts a catalog root and fails when the given paths hold no contract', async () => {
    const ok = await runTs('build/cli/validate.ts', [cat.catalogDir]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/^1 file\(s\) checked, 1 valid, 0 error\(s\)/m);
    const empty = path.join(cat.root, 'empty');
    await fsp.mkdir(empty);
    const none = await runTs('build/cli/validate.ts', [empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no contract files in/);
  }, 120_000);

  it('API_ORIGIN is where _redirects send the dynamic paths', async () => {
    const r = await runTs('build/cli/build.ts', [], {
      env: {
        CATALOG_DIR: cat.catalogDir,
        DIST_DIR: cat.distDir,
        BASE_URL: 'https://cdn.example',
        API_ORIGIN: 'https://api.example',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    const redirects = await fsp.readFile(path.join(cat.distDir, '_redirects'), 'utf8');
    expect(redirects).toContain('/api/*  https://api.example/api/:splat  200');
    expect(redirects).not.toContain('cdn.example');
  }, 120_000);

  it('a busy port: one line, exit 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await runTs('api/main.ts', ['--no-build'], {
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          CATALOG_DIR: cat.catalogDir,
          DIST_DIR: cat.distDir,
          DATA_DIR: cat.dataDir,
        },
      });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `not started: port ${port} on 127.0.0.1 is already in use (set PORT to another port)`,
      );
    } finally {
      blocker.close();
    }
  }, 120_000);

  it('npm start rebuilds a dist/ built for another BASE_URL before serving', async () => {
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: 'https://old.example' });
    const [cmd, args] = nodeArgs('api/main.ts');
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: childEnv({
        PORT: '0',
        HOST: '127.0.0.1',
        BASE_URL: 'https://new.example',
        CATALOG_DIR: cat.catalogDir,
        DIST_DIR: cat.distDir,
        DATA_DIR: cat.dataDir,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (d: Buffer) => {
          text += d.toString();
          if (/listening on/.test(text)) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      expect(out).toMatch(/"reason":"dist\/ was built for BASE_URL https:\/\/old.example"/);
      const info = JSON.parse(await fsp.readFile(path.join(cat.distDir, 'build-info.json'), 'utf8')) as {
        base_url: string;
      };
      expect(info.base_url).toBe('https://new.example');
    } finally {
      child.kill('SIGTERM');
    }
  }, 180_000);
});
