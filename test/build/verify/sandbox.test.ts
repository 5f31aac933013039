// The sandbox on its own: each limit stops what it should and says which; the system is read-only, the
// work folder is the only writable host path, and there is no network unless a proxy socket is given.
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAllowListProxy } from '../../../build/verify/registry-proxy.ts';
import { RELAY_PORT, runSandboxed, sandboxUnavailable } from '../../../build/verify/sandbox.ts';

let work: string;
beforeAll(async () => {
  const missing = sandboxUnavailable();
  if (missing) throw new Error(`these tests need the sandbox: ${missing}`);
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'sandbox-test-'));
});
afterAll(() => fsp.rm(work, { recursive: true, force: true }));

async function processesWith(token: string): Promise<number> {
  let n = 0;
  for (const pid of await fsp.readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmd = await fsp.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').includes(token)) n++;
  }
  return n;
}

const run = (argv: string[], limits = {}, extra = {}) => runSandboxed({ argv, workDir: work, limits, ...extra });

describe('runSandboxed', { timeout: 120_000 }, () => {
  it('runs a command in /work with a private HOME and /tmp, a fresh PID namespace and a read-only system', async () => {
    const r = await run([
      'sh',
      '-c',
      'pwd; echo $HOME; echo $$; echo made > made.txt; touch /usr/x 2>&1 || true; ls /root 2>&1 || true',
    ]);
    expect(r).toMatchObject({ code: 0, signal: null, timedOut: false });
    const [pwd, home, pid] = r.stdout.split('\n');
    expect([pwd, home]).toEqual(['/work', '/home/sandbox']);
    // A fresh PID namespace numbers from 1 (the launcher's threads take a few numbers too).
    expect(Number(pid)).toBeLessThan(50);
    expect(r.stdout).toMatch(/Read-only file system/);
    expect(r.stdout).toMatch(/No such file or directory/);
    expect(await fsp.readFile(path.join(work, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('reports the exit code and a signal that ended the command', async () => {
    expect((await run(['sh', '-c', 'exit 7'])).code).toBe(7);
    expect(await run(['sh', '-c', 'kill -TERM $$'])).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect((await run(['no-such-program'])).code).toBe(127);
  });

  it('stops a CPU spinner at the CPU-time limit', async () => {
    const r = await run(['node', '-e', 'for (;;) {}'], { cpuSeconds: 2 });
    expect(r).toMatchObject({ limit: 'cpu', signal: 'SIGXCPU' });
  });

  it('refuses memory beyond the memory limit', async () => {
    const r = await run(['node', '-e', 'const a = []; for (;;) a.push(Buffer.alloc(1e7, 1))'], {
      memoryBytes: 300 * 1024 ** 2,
    });
    expect(r.code).not.toBe(0);
    expect(r.limit).toBe('memory');
  });

  it('stops reading and kills the command past the output cap', async () => {
    const r = await run(['sh', '-c', 'while :; do echo yyyyyyyyyyyyyyyyyyyy; done'], { outputBytes: 10_000 });
    expect(r.limit).toBe('output');
    expect(r.stdout.length).toBe(10_000);
  });

  it('kills the whole sandbox, background children too, at the wall-clock limit', async () => {
    // A background child that would outlive its shell, marked by an unusual argument.
    const r = await run(['sh', '-c', 'sleep 4321.5 & sleep 100'], { wallMs: 1000 });
    expect(r).toMatchObject({ timedOut: true, limit: 'wall' });
    // The namespace's init dies with the outer bwrap; its processes go with it, shortly after.
    const deadline = Date.now() + 15_000;
    while ((await processesWith('4321.5')) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setImmediate(resolve));
    expect(await processesWith('4321.5')).toBe(0);
  });

  it('has no network; with a proxy socket it reaches allowed hosts only', async () => {
    const hits: string[] = [];
    const upstream = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('registry says hi');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    const other = http.createServer((req, res) => {
      hits.push(`other ${req.url}`);
      res.end('x');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    const proxy = await startAllowListProxy([`127.0.0.1:${port}`]);
    try {
      const get = (target: string) =>
        `new Promise((r) => { const q = require('http').get({ host: '127.0.0.1', port: ${RELAY_PORT}, path: '${target}' }, (s) => { let b = ''; s.on('data', (c) => b += c); s.on('end', () => r(s.statusCode + ' ' + b)); }); q.on('error', (e) => r(e.code)); })`;
      const direct = `new Promise((r) => { const s = require('net').connect(${port}, '127.0.0.1', () => r('connected')); s.on('error', (e) => r(e.code)); })`;
      const script = `(async () => { console.log(await ${direct}); console.log(await ${get(`http://127.0.0.1:${port}/pkg`)}); console.log(await ${get(`http://127.0.0.1:${otherPort}/x`)}); })()`;
      const offline = await run(['node', '-e', script]);
      expect(offline.stdout.split('\n').slice(0, 3)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
      const online = await run(['node', '-e', script], {}, { proxySocket: proxy.socketPath });
      expect(online.stdout.split('\n').slice(0, 3)).toEqual([
        'ECONNREFUSED',
        '200 registry says hi',
        '403 not a package registry',
      ]);
      expect(hits).toEqual(['/pkg']);
      expect(proxy.refused).toEqual([`127.0.0.1:${otherPort}`]);
    } finally {
      await proxy.close();
      upstream.close();
      other.close();
    }
  });
});
