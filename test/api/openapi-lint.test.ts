// The served /openapi.json passes the two common OpenAPI linters with 0 errors: Redocly's recommended rules
// (every operation declares its security; public ones `security: []`) and Spectral's spectral:oas (array
// schemas have `items`). Warnings are allowed; errors are not.
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT } from '../helpers/run-ts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd,
        env: childEnv({ REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }),
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

describe('OpenAPI lint', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer();
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-oas-'));
    await fsp.writeFile(path.join(dir, 'openapi.json'), await (await s.fetch('/openapi.json')).text());
    await fsp.writeFile(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  });
  afterAll(async () => {
    await s?.cleanup();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('Redocly (recommended rules): 0 errors', async () => {
    const r = await run(bin('redocly'), ['lint', 'openapi.json', '--format', 'json'], dir);
    const report = JSON.parse(r.out.slice(r.out.indexOf('{'), r.out.lastIndexOf('}') + 1)) as {
      totals: { errors: number; warnings: number };
    };
    expect(report.totals.errors, r.out.slice(0, 4000)).toBe(0);
    expect(r.code).toBe(0);
  }, 180_000);

  it('Spectral (spectral:oas): 0 errors', async () => {
    const r = await run(
      bin('spectral'),
      ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--fail-severity', 'error'],
      dir,
    );
    const results = JSON.parse(r.out.slice(r.out.indexOf('['), r.out.lastIndexOf(']') + 1)) as {
      severity: number;
      code: string;
      path: string[];
    }[];
    const errors = results.filter((x) => x.severity === 0);
    expect(errors.map((e) => `${e.code} ${e.path.join('.')}`)).toEqual([]);
    expect(results.length).toBeGreaterThan(0); // it did read the document (warnings exist)
    expect(r.code).toBe(0);
  }, 180_000);
});
