// The layering rules are the linter's (biome.json): run it on a fixture tree of deliberately broken imports
// and check that each one is rejected with the right rule, and that allowed imports pass.
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.join(ROOT, 'test/fixtures/layering');
const BIOME = path.join(ROOT, 'node_modules/.bin/biome');

interface Diagnostic {
  category: string;
  location: { path: { file: string } | string };
}

let dir: string;
let diagnostics: { file: string; rule: string }[];

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'layering-'));
  await fsp.cp(FIXTURE, dir, { recursive: true });
  const config = JSON.parse(await fsp.readFile(path.join(ROOT, 'biome.json'), 'utf8'));
  // The fixture is excluded from the project's own run; here it is the tree under test.
  config.files.includes = ['**/*.ts'];
  delete config.$schema;
  await fsp.writeFile(path.join(dir, 'biome.json'), JSON.stringify(config));
  const run = await promisify(execFile)(BIOME, ['lint', '--reporter=json', '--max-diagnostics=200', '.'], {
    cwd: dir,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
  diagnostics = report.diagnostics.map((d) => ({
    file: typeof d.location.path === 'string' ? d.location.path : d.location.path.file,
    rule: d.category,
  }));
}, 60_000);

afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

const rulesOf = (file: string) => diagnostics.filter((d) => d.file.endsWith(file)).map((d) => d.rule);

describe('layering rules (biome.json)', () => {
  it('rejects build/ importing api/', () => {
    expect(rulesOf('build/pipeline/uses-api.ts')).toContain('lint/style/noRestrictedImports');
  });

  it('rejects a service importing h3, routes/ or the HTTP glue, and MCP importing the HTTP glue', () => {
    expect(rulesOf('api/services/uses-h3.ts')).toContain('lint/style/noRestrictedImports');
    expect(rulesOf('api/services/uses-route.ts')).toContain('lint/style/noRestrictedImports');
    expect(rulesOf('api/mcp/uses-http.ts')).toContain('lint/style/noRestrictedImports');
  });

  it('rejects an import cycle', () => {
    expect(rulesOf('api/services/cycle-a.ts')).toContain('lint/suspicious/noImportCycles');
  });

  it('accepts the allowed imports (the HTTPError type from h3, a sibling service)', () => {
    expect(rulesOf('api/services/ok.ts').filter((r) => r !== 'lint/suspicious/noImportCycles')).toEqual([]);
    expect(rulesOf('api/routes/route.ts')).toEqual([]);
  });
});
