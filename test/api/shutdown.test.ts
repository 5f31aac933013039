// Graceful shutdown of the README's start command: `npm start` in a child process gets SIGTERM while
// telemetry reports are in flight. npm passes the signal to the server, which stops accepting, answers
// what it accepted, flushes and exits 0; after a restart every acknowledged report is counted.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT } from '../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const AID = 'npm-shutdown-probe-v1';
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Started {
  proc: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function npmStart(cat: TempCatalog): Promise<Started> {
  const proc = spawn(NPM, ['start', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'https://catalog.example',
      CATALOG_DIR: cat.catalogDir,
      DIST_DIR: cat.distDir,
      DATA_DIR: cat.dataDir,
      RATE_LIMIT_TELEMETRY_PER_MIN: '0',
    }),
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  proc.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m?.[1]) {
        proc.stdout?.off('data', onData);
        resolve({ proc, url: m[1], output: () => out, exited });
      }
    };
    proc.stdout?.on('data', onData);
    void exited.then((code) => reject(new Error(`npm start exited with ${code}:\n${out.slice(-3000)}`)));
  });
}

const report = (url: string, i: number) =>
  fetch(`${url}/api/v1/tools/${AID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ execution_feedback: i % 5 === 0 ? 500 : 200, trend_keyword: 'graceful shutdown probe' }),
  }).then(
    async (r) => {
      await r.arrayBuffer();
      return r.status;
    },
    () => 0,
  );

describe('SIGTERM to npm start', () => {
  let cat: TempCatalog;
  afterAll(async () => {
    await cat?.cleanup();
  });

  it('finishes the reports in flight, exits 0, and keeps every acknowledged one across a restart', async () => {
    cat = await tempCatalog([sampleContract(AID)]);
    const first = await npmStart(cat);
    let acked = 0;
    let signalled = false;
    let firstAcks: () => void = () => undefined;
    const enoughAcks = new Promise<void>((resolve) => {
      firstAcks = resolve;
    });
    // 24 clients keep reporting until the server stops answering; SIGTERM goes out once 40 reports are in.
    const clients = Array.from({ length: 24 }, async (_, c) => {
      for (let i = 0; ; i++) {
        const status = await report(first.url, c * 100_000 + i);
        if (status === 200) {
          acked++;
          if (acked >= 40) firstAcks();
          continue;
        }
        if (signalled) return;
        throw new Error(`report answered ${status} before the signal`);
      }
    });
    await enoughAcks;
    signalled = true;
    first.proc.kill('SIGTERM');
    await Promise.all(clients);
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/"signal":"SIGTERM".*"msg":"shutdown started"/);
    expect(first.output()).toMatch(/"msg":"shutdown complete"/);
    // Nothing is left listening (npm passed the signal on; no orphaned server).
    expect(
      await fetch(`${first.url}/health`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');

    const second = await npmStart(cat);
    try {
      const res = await fetch(`${second.url}/api/v1/tools/${AID}`);
      const body = (await res.json()) as { trust: { telemetry: { requests: number } } };
      expect(acked).toBeGreaterThanOrEqual(40);
      expect(body.trust.telemetry.requests).toBe(acked);
    } finally {
      second.proc.kill('SIGINT');
      expect(await second.exited).toBe(0);
    }
  }, 240_000);
});
