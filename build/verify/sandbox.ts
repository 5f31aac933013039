// Runs one argument vector in bubblewrap: read-only system, the work folder as the only writable host path,
// private /tmp and HOME, fresh PID/network/IPC/UTS namespaces, rlimits (CPU, memory, processes, file size),
// and limits the host enforces (output size, wall clock, disk use of the work folder). Under root the sandbox
// also runs as a throwaway host uid, so process counts and file permissions are its own.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fsp, lstatSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface SandboxLimits {
  cpuSeconds: number;
  /** Data segment (RLIMIT_DATA): what a process may allocate; V8's address reservations do not count. */
  memoryBytes: number;
  processes: number;
  fileBytes: number;
  outputBytes: number;
  wallMs: number;
  /** Size of the work folder, checked by the host once a second. */
  diskBytes: number;
  /** Size of the private /tmp and HOME (tmpfs). */
  tmpBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuSeconds: 120,
  memoryBytes: 2 * 1024 ** 3,
  processes: 512,
  fileBytes: 256 * 1024 ** 2,
  outputBytes: 1024 ** 2,
  wallMs: 300_000,
  diskBytes: 1024 ** 3,
  tmpBytes: 256 * 1024 ** 2,
};

export type LimitHit = 'cpu' | 'memory' | 'processes' | 'file-size' | 'output' | 'wall' | 'disk';

export interface SandboxResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  limit?: LimitHit;
  ms: number;
}

export interface SandboxRequest {
  argv: string[];
  /** Host folder mounted read-write at /work (the only writable host path). */
  workDir: string;
  env?: Record<string, string>;
  limits?: Partial<SandboxLimits>;
  /** Unix socket of an allow-list proxy: the sandbox reaches it as http://127.0.0.1:RELAY_PORT. Absent: no network. */
  proxySocket?: string;
  /** Extra host paths mounted read-only at the same place (a local package index, find-links). */
  readOnlyPaths?: string[];
  /** Host paths mounted read-only at another place (the verifier's own MCP client and its packages). */
  readOnlyBinds?: { from: string; to: string }[];
  /** Host folder served on the sandbox's own loopback at http://127.0.0.1:FIXTURE_PORT/ (no way out). */
  fixtureDir?: string;
}

export const SANDBOX_WORK = '/work';
export const SANDBOX_HOME = '/home/sandbox';
export const RELAY_PORT = 3128;
export const FIXTURE_PORT = 8080;
const TOOL_DIR = '/opt/sandbox';
const LAUNCHER = path.join(import.meta.dirname, 'launcher.mjs');

/** Why the sandbox cannot run here, or null when it can. */
export function sandboxUnavailable(): string | null {
  const probe = spawnSync('bwrap', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap';
  }
  const prlimit = spawnSync('prlimit', ['--version'], { encoding: 'utf8' });
  if (prlimit.error || prlimit.status !== 0) return 'prlimit (util-linux) is not installed';
  const trial = spawnSync('bwrap', [...baseArgs(null), '--', '/bin/true'], { encoding: 'utf8' });
  if (trial.status !== 0) return `bwrap cannot create namespaces here: ${(trial.stderr || '').trim()}`;
  return null;
}

// /etc entries a package manager needs: certificates, name service files, alternatives for /usr/bin links.
const ETC = [
  'ssl',
  'ca-certificates',
  'alternatives',
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'localtime',
  'mime.types',
];

function baseArgs(uid: number | null): string[] {
  const args = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
  ];
  if (uid != null) args.push('--uid', String(uid), '--gid', String(uid));
  args.push('--hostname', 'sandbox', '--die-with-parent', '--new-session', '--ro-bind', '/usr', '/usr');
  for (const top of ['bin', 'sbin', 'lib', 'lib32', 'lib64']) {
    const p = `/${top}`;
    if (!existsSync(p)) continue;
    // Merged-/usr systems have these as symlinks into /usr; others need them mounted.
    if (lstatSync(p).isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
    else args.push('--ro-bind', p, p);
  }
  for (const name of ETC) if (existsSync(`/etc/${name}`)) args.push('--ro-bind', `/etc/${name}`, `/etc/${name}`);
  args.push('--proc', '/proc', '--dev', '/dev');
  return args;
}

/** The npm CLI the host runs, mounted read-only when it lives outside /usr. */
function npmCli(): string | null {
  const paths = [
    path.join(path.dirname(process.execPath), '../lib/node_modules'),
    '/usr/lib/node_modules',
    '/usr/local/lib/node_modules',
  ];
  try {
    return createRequire(import.meta.url).resolve('npm/bin/npm-cli.js', { paths });
  } catch {
    return null;
  }
}
let npmCliCache: string | null | undefined;

/** Writes node/npm/npx entry points for the sandbox into a host folder mounted at /opt/sandbox/bin. */
async function writeToolDir(dir: string): Promise<string[]> {
  npmCliCache ??= npmCli();
  const bin = path.join(dir, 'bin');
  await fsp.mkdir(bin, { recursive: true });
  const binds: string[] = [
    '--ro-bind',
    process.execPath,
    `${TOOL_DIR}/bin/node`,
    '--ro-bind',
    LAUNCHER,
    `${TOOL_DIR}/launcher.mjs`,
  ];
  if (npmCliCache) {
    const npmRoot = path.resolve(path.dirname(npmCliCache), '..');
    if (!npmRoot.startsWith('/usr/')) binds.push('--ro-bind', npmRoot, npmRoot);
    for (const [name, script] of [
      ['npm', 'npm-cli.js'],
      ['npx', 'npx-cli.js'],
    ] as const) {
      const file = path.join(bin, name);
      await fsp.writeFile(file, `#!/bin/sh\nexec ${TOOL_DIR}/bin/node ${path.join(npmRoot, 'bin', script)} "$@"\n`, {
        mode: 0o755,
      });
      binds.push('--ro-bind', file, `${TOOL_DIR}/bin/${name}`);
    }
  }
  return binds;
}

/** A host uid nobody else uses, so RLIMIT_NPROC counts only this sandbox's processes. */
const sandboxUid = () => 200_000 + Math.floor(Math.random() * 100_000);

async function chownTree(dir: string, uid: number): Promise<void> {
  // Asynchronous: the allow-list proxy of a concurrent install lives in this process.
  await execFileAsync('chown', ['-R', `${uid}:${uid}`, dir]).catch((error: Error) => {
    throw new Error(`cannot hand ${dir} to the sandbox user: ${error.message}`);
  });
}

/** Bytes under a folder, stopping once past `cap` (symlinks not followed). */
export async function folderSize(dir: string, cap: number): Promise<number> {
  let total = 0;
  const stack = [dir];
  while (stack.length > 0 && total <= cap) {
    const current = stack.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(current, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) total += (await fsp.lstat(p).catch(() => ({ blocks: 0 }))).blocks * 512;
    }
  }
  return total;
}

const SIGNAL_LIMITS: Record<string, LimitHit> = { SIGXCPU: 'cpu', SIGXFSZ: 'file-size' };
const MEMORY_TEXT = /out of memory|allocation failed|MemoryError|Cannot allocate memory|std::bad_alloc/i;
const FORK_TEXT = /Resource temporarily unavailable|EAGAIN.*(spawn|fork)|fork: retry/i;
// Python (pip among others) ignores SIGXFSZ and reports the write that passed RLIMIT_FSIZE as EFBIG.
const FILE_SIZE_TEXT = /\[Errno 27\] File too large|\bEFBIG\b/;

export async function runSandboxed(request: SandboxRequest): Promise<SandboxResult> {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const started = performance.now();
  const toolDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sandbox-tools-'));
  try {
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? sandboxUid() : null;
    if (uid != null) await chownTree(request.workDir, uid);
    await fsp.chmod(toolDir, 0o755);
    const args = [...baseArgs(uid), ...(await writeToolDir(toolDir))];
    args.push('--size', String(limits.tmpBytes), '--tmpfs', '/tmp');
    args.push('--size', String(limits.tmpBytes), '--perms', '0700', '--tmpfs', SANDBOX_HOME);
    args.push('--bind', request.workDir, SANDBOX_WORK, '--chdir', SANDBOX_WORK);
    for (const p of request.readOnlyPaths ?? []) if (existsSync(p)) args.push('--ro-bind', p, p);
    for (const b of request.readOnlyBinds ?? []) args.push('--ro-bind', b.from, b.to);
    const env: Record<string, string> = {
      PATH: `${TOOL_DIR}/bin:/usr/local/bin:/usr/bin:/bin`,
      HOME: SANDBOX_HOME,
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      ...request.env,
    };
    const launcher = [`${TOOL_DIR}/bin/node`, `${TOOL_DIR}/launcher.mjs`];
    if (request.proxySocket) {
      args.push('--bind', request.proxySocket, `${TOOL_DIR}/proxy.sock`);
      launcher.push('--relay', `${RELAY_PORT}:${TOOL_DIR}/proxy.sock`);
    }
    if (request.fixtureDir) {
      args.push('--ro-bind', request.fixtureDir, `${TOOL_DIR}/fixture`);
      launcher.push('--fixture', `${FIXTURE_PORT}:${TOOL_DIR}/fixture`);
    }
    args.push('--clearenv');
    for (const [k, v] of Object.entries(env)) args.push('--setenv', k, v);
    const rlimits = [
      // Soft limit first (SIGXCPU, reported as `cpu`), SIGKILL two seconds of CPU later.
      `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 2}`,
      `--data=${limits.memoryBytes}`,
      `--nproc=${limits.processes}`,
      `--fsize=${limits.fileBytes}`,
      '--core=0',
    ];
    args.push('--', '/usr/bin/prlimit', ...rlimits, '--', ...launcher, '--', ...request.argv);
    const [command, prefix] =
      uid != null ? ['setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', 'bwrap']] : ['bwrap', []];
    return await supervise(command, [...prefix, ...args], request.workDir, limits, started);
  } finally {
    await fsp.rm(toolDir, { recursive: true, force: true });
  }
}

function supervise(
  command: string,
  args: string[],
  workDir: string,
  limits: SandboxLimits,
  started: number,
): Promise<SandboxResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let limit: LimitHit | undefined;
    let settled = false;
    const kill = (why: LimitHit) => {
      limit ??= why;
      try {
        // The outer bwrap's group; its death takes the sandbox's PID namespace (and everything in it) along.
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const take = (into: Buffer[]) => (chunk: Buffer) => {
      const room = limits.outputBytes - bytes;
      if (room > 0) into.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      bytes += chunk.length;
      if (bytes > limits.outputBytes) kill('output');
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(err));
    const wall = setTimeout(() => kill('wall'), limits.wallMs);
    let measuring = false;
    const disk = setInterval(async () => {
      if (measuring) return;
      measuring = true;
      if ((await folderSize(workDir, limits.diskBytes)) > limits.diskBytes) kill('disk');
      measuring = false;
    }, 1000);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(wall);
      clearInterval(disk);
      const stderr = Buffer.concat(err).toString('utf8');
      // The launcher reports a signal that ended the command as 128 + its number.
      let sig: string | null = signal;
      let status = code;
      if (code != null && code > 128 && code < 128 + 65) {
        sig = Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0] ?? null;
        status = null;
      }
      if (!limit && sig && SIGNAL_LIMITS[sig]) limit = SIGNAL_LIMITS[sig];
      if (!limit && status !== 0 && MEMORY_TEXT.test(stderr)) limit = 'memory';
      if (!limit && status !== 0 && FORK_TEXT.test(stderr)) limit = 'processes';
      if (!limit && status !== 0 && FILE_SIZE_TEXT.test(stderr)) limit = 'file-size';
      resolve({
        code: status,
        signal: sig,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
        timedOut: limit === 'wall',
        ...(limit ? { limit } : {}),
        ms: Math.round(performance.now() - started),
      });
    };
    // The sandbox itself could not start (no bwrap or setpriv): the verifier's fault, not the tool's.
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(wall);
      clearInterval(disk);
      reject(new Error(`cannot start the sandbox (${command}): ${error.message}`));
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
}
