// Scale-out test helpers: a throwaway redis-server on a free loopback port (its own folder, killed after)
// and API servers as separate processes, so tests exercise several real processes sharing one Redis.
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from '../../build/pipeline/build.ts';
import { childEnv, nodeArgs, ROOT } from './run-ts.ts';
import { BASE_URL, FIXTURES } from './server.ts';

// Found on PATH (Debian's redis-server package, as .ci/run installs it) unless REDIS_SERVER_PATH says otherwise.
export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? 'redis-server';

/** A port the OS just gave out; it may be taken again before use, so callers retry on a bind failure. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// Children still running when the test process exits (a failed hook, an interrupted run) die with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});
function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Resolves once `pattern` appears on the child's stdout; rejects when it exits first or time runs out. */
function waitForOutput(child: ChildProcess, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => done(new Error(`timed out waiting for ${pattern}; output:\n${out.slice(-2000)}`)),
      ms,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) done(null, m);
    };
    const onExit = (code: number | null) =>
      done(new Error(`exited (${code}) before ${pattern}; output:\n${out.slice(-2000)}`));
    const done = (error: Error | null, m?: RegExpExecArray) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(m as RegExpExecArray);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

export interface RedisProcess {
  url: string;
  port: number;
  dir: string;
  /** SIGKILL, no shutdown save: what a power cut does to Redis. */
  kill9(): Promise<void>;
  /** Starts redis-server again on the same port and folder (an AOF, if enabled, is replayed). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** Extra redis-server arguments, e.g. ['--appendonly', 'yes', '--appendfsync', 'always']. */
  args?: string[];
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisProcess> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-redis-'));
  const args = options.args ?? ['--appendonly', 'no'];
  let port = 0;
  let child: ChildProcess | null = null;
  const launch = async () => {
    const c = track(
      spawn(
        REDIS_SERVER,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--protected-mode', 'yes', ...args],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    child = c;
    await waitForOutput(c, /Ready to accept connections/, 15_000);
    c.stdout?.resume();
    c.stderr?.resume();
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
  const kill = async (signal: NodeJS.Signals) => {
    const c = child;
    if (!c) return;
    child = null;
    c.kill(signal);
    await exited(c);
  };
  return {
    get url() {
      return `redis://127.0.0.1:${port}/0`;
    },
    get port() {
      return port;
    },
    dir,
    kill9: () => kill('SIGKILL'),
    restart: launch,
    async stop() {
      await kill('SIGKILL');
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface ApiProcess {
  url: string;
  pid: number;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `npm start` (api/main.ts) in a child process with this environment; resolves once it listens. PORT=0
 * picks a free port, read back from the start-up line. main.ts builds dist/ first when it is missing.
 */
export async function startApiProcess(env: NodeJS.ProcessEnv): Promise<ApiProcess> {
  // node api/main.ts: one process, so kill9() kills the server itself (the tsx CLI would leave a grandchild).
  const [cmd, args] = nodeArgs('api/main.ts');
  const child = track(
    spawn(cmd, args, {
      cwd: ROOT,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let url: string;
  try {
    url = (await waitForOutput(child, /listening on (http:\/\/\S+)/, 60_000))[1] as string;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  // Keep draining the pipes so a chatty child never blocks on a full buffer.
  child.stdout?.resume();
  child.stderr?.on('data', (c: Buffer) => {
    if (process.env.TCC_TEST_VERBOSE) process.stderr.write(c);
  });
  return {
    url,
    pid: child.pid as number,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface SiteRoot {
  root: string;
  catalogDir: string;
  distDir: string;
  /** DATA_DIR for the n-th API process (each its own, so nothing is shared through files). */
  dataDir(n: number): string;
  /** The environment `npm start` needs to serve this root. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/**
 * A temporary copy of the fixture tools with dist/ built, as a deployment would have it. (The fixture
 * API manifests include deliberately odd records for the API tests; scale-out tests need only tools.)
 */
export async function prepareSite(): Promise<SiteRoot> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-site-'));
  const catalogDir = path.join(root, 'catalog');
  const distDir = path.join(root, 'dist');
  await fsp.cp(path.join(FIXTURES, 'tools'), path.join(catalogDir, 'tools'), { recursive: true });
  await build({ catalogDir, distDir, baseUrl: BASE_URL });
  return {
    root,
    catalogDir,
    distDir,
    dataDir: (n) => path.join(root, `data-${n}`),
    env: (extra = {}) => ({
      BASE_URL,
      CATALOG_DIR: catalogDir,
      DIST_DIR: distDir,
      DATA_DIR: path.join(root, 'data-0'),
      ...extra,
    }),
    cleanup: () => fsp.rm(root, { recursive: true, force: true }),
  };
}

/** Builds dist/ from the tools of `catalogDir` only (see prepareSite on the fixture API manifests). */
export async function buildToolsSite(catalogDir: string, distDir: string): Promise<void> {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-tools-'));
  try {
    await fsp.cp(path.join(catalogDir, 'tools'), path.join(tmp, 'tools'), { recursive: true });
    await build({ catalogDir: tmp, distDir, baseUrl: BASE_URL });
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/** Runs `task(i)` for i in [0, n) with at most `concurrency` at once; results in order. */
export async function pool<T>(n: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return out;
}
