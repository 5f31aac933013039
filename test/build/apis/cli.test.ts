// npm run compile-apis end to end on a small copy of the directory layout: worker threads, failures
// reported and skipped, stale files removed by the folder swap, reruns byte-identical. No network.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs } from '../../helpers/run-ts.ts';
import { DIRECTORY_FIXTURES } from './fixtures.ts';

const work = mkdtempSync(path.join(tmpdir(), 'compile-apis-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('compile-apis', () => {
  it('compiles a directory copy, reports failures without stopping, swaps the folder, reruns identically', async () => {
    const dir = path.join(work, 'api');
    cpSync(DIRECTORY_FIXTURES, dir, { recursive: true });
    writeFileSync(path.join(dir, 'broken.example.json'), '{ not json');
    const webhooks = JSON.parse(readFileSync(path.join(dir, 'xkcd.com.json'), 'utf8'));
    webhooks.paths = {};
    webhooks.info['x-providerName'] = 'hooks.example';
    writeFileSync(path.join(dir, 'hooks.example.json'), JSON.stringify(webhooks));
    const out = path.join(work, 'catalog', 'apis');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'stale_api.json'), '{}\n');

    const args = ['--dir', dir, '--out', out, '--compiled-at', '2026-01-01T00:00:00Z', '--workers', '2'];
    const first = await runTs('build/cli/compile-apis.ts', args, { env: { CI: 'true' } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('broken.example: invalid JSON');
    expect(first.stdout).toContain('hooks.example: no operations');
    expect(first.stdout).toMatch(/wrote 8 manifests .* 2 failed/);
    expect(first.stdout).toMatch(/recipe \(\d+ ops\)\s+min \d+\s+median \d+/);
    expect(first.stdout).toMatch(/definition\s+min \d/);
    expect(first.stderr).not.toContain('compile-apis: 0/'); // no progress bar when not a TTY

    const names = readdirSync(out)
      .filter((n) => n.endsWith('.json'))
      .sort();
    expect(names).toEqual(
      [
        'adyen_dispute_service_v30_api.json',
        'aws_applicationcostprofiler_api.json',
        'aws_entitlement_marketplace_api.json',
        'currencytick_api.json',
        'google_gmail_api.json',
        '1password_events_api.json',
        'twilio_api.json',
        'xkcd_api.json',
      ].sort(),
    );
    // One recipes file per manifest, and nothing else.
    const recipes = readdirSync(path.join(out, 'operations')).sort();
    expect(recipes).toEqual(names.map((n) => n.replace(/\.json$/, '.json.gz')));
    expect(readdirSync(out).filter((n) => !n.endsWith('.json'))).toEqual(['operations']);
    expect(readdirSync(path.dirname(out))).toEqual(['apis']); // no temp or old folder left behind
    const files = [...names, ...recipes.map((n) => `operations/${n}`)];
    const before = files.map((n) => readFileSync(path.join(out, n)));

    const second = await runTs('build/cli/compile-apis.ts', args, { env: { CI: 'true' } });
    expect(second.code, second.stderr).toBe(0);
    expect(files.map((n) => readFileSync(path.join(out, n)))).toEqual(before);
  });
});
