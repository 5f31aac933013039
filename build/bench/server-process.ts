// The real server in a child process for benchmarks and load tests (`node api/main.ts`,
// one process so a signal reaches it), resolved with its URL once it listens.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function startServerProcess(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        // Stop collecting: under load the server logs a line per request, and matching the ever-growing text
        // on every chunk cost this process (the load generator's) quadratic time: throughput fell run by run.
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ child, url: m[1] as string });
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
}
