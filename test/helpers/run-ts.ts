// Runs one of the project's TypeScript entry points in a child process, as `npm run` would.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/**
 * `node --import tsx <script>`: one process, so a signal reaches the program itself. The tsx CLI runs
 * the program in a grandchild, which survives a SIGKILL sent to the CLI and keeps writing.
 */
export function nodeArgs(script: string, args: string[] = []): [string, string[]] {
  return [process.execPath, ['--import', pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href, path.join(ROOT, script), ...args]];
}

/** The environment a child gets: ours without what Vite/vitest inject (BASE_URL="/" among them). */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'VITEST', 'VITEST_MODE', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS']) delete env[k];
  return { ...env, ...extra };
}

export interface RunResult { code: number; stdout: string; stderr: string }

export function runTs(script: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(TSX, [path.join(ROOT, script), ...args], { cwd: options.cwd ?? ROOT, env: childEnv(options.env), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}
