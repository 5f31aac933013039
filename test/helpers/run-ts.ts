// Runs one of the project's TypeScript entry points in a child process, as `npm run` would.
import { execFile } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** `node <script>`, as the npm scripts run it (Node >= 22.18 runs the TypeScript itself): one process. */
export function nodeArgs(script: string, args: string[] = []): [string, string[]] {
  return [process.execPath, [path.join(ROOT, script), ...args]];
}

/** The environment a child gets: ours without what Vite/vitest inject (BASE_URL="/" among them). */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of [
    'BASE_URL',
    'MODE',
    'DEV',
    'PROD',
    'SSR',
    'VITEST',
    'VITEST_MODE',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'NODE_OPTIONS',
  ])
    delete env[k];
  return { ...env, ...extra };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTs(
  script: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const [cmd, argv] = nodeArgs(script, args);
    execFile(
      cmd,
      argv,
      // A deadline, so a command that never ends cannot outlive its test as an orphan.
      { cwd: options.cwd ?? ROOT, env: childEnv(options.env), maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
