import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  type Check,
  checkErrors,
  numbersIn,
  parseJsonResult,
  type RunResult,
  runCheck,
} from '../../../build/eval/agent/checks.ts';
import { loadTaskSet, TASK_SETS } from '../../../build/eval/agent/tasks.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const tasksDir = path.join(here, '../../fixtures/agent-tasks');
const fixture = (name: string) => readFileSync(path.join(tasksDir, 'files', name));

const run = (result: string | Uint8Array, extra: Partial<RunResult> = {}): RunResult => ({
  result: typeof result === 'string' ? new TextEncoder().encode(result) : result,
  stdout: typeof result === 'string' ? result : '',
  stderr: '',
  exitCode: 0,
  ...extra,
});
const ok = (check: Check, r: RunResult) => runCheck(check, r).ok;

describe('text checks', () => {
  it('contains / not_contains, with and without case folding', () => {
    expect(ok({ contains: ['Hello', 'World'] }, run('Hello World'))).toBe(true);
    expect(runCheck({ contains: 'world' }, run('Hello World'))).toEqual({ ok: false, reason: 'result lacks "world"' });
    expect(ok({ contains: 'world', ignore_case: true }, run('Hello World'))).toBe(true);
    expect(ok({ not_contains: ['<p>'] }, run('<p>x</p>'))).toBe(false);
    expect(ok({ not_contains: '<P>', ignore_case: true }, run('<p>x</p>'))).toBe(false);
  });

  it('matches the result, log_matches stdout and stderr together', () => {
    expect(ok({ matches: '^apple\\nbanana$' }, run('apple\nbanana'))).toBe(true);
    expect(ok({ matches: 'TUESDAY', flags: 'i' }, run('tuesday'))).toBe(true);
    expect(ok({ log_matches: 'SyntaxError' }, run('', { stderr: 'x.js:1 SyntaxError: Unexpected' }))).toBe(true);
    expect(ok({ log_matches: 'SyntaxError' }, run('all good'))).toBe(false);
  });

  it('equals compares with whitespace collapsed', () => {
    expect(ok({ equals: 'a b' }, run('  a\n b \n'))).toBe(true);
    expect(ok({ equals: 'a b' }, run('a  c'))).toBe(false);
  });

  it('number_near finds any number written in the text, not digits inside words', () => {
    expect(numbersIn('46 days, sha256 of v2, -3.5 and 1,234,567.')).toEqual([46, -3.5, 1234567]);
    expect(ok({ number_near: 46 }, run('There are 46 days.'))).toBe(true);
    expect(ok({ number_near: 256 }, run('sha256'))).toBe(false);
    expect(ok({ number_near: 3.14, tolerance: 0.01 }, run('pi is 3.1416'))).toBe(true);
  });

  it('line counts and lengths', () => {
    expect(ok({ min_lines: 3 }, run('a\n\nb\nc\n'))).toBe(true);
    expect(ok({ min_lines: 3 }, run('a\n\nb\n'))).toBe(false);
    expect(ok({ max_line_length: 5 }, run('12345\nabc'))).toBe(true);
    expect(ok({ max_line_length: 5 }, run('123456'))).toBe(false);
  });
});

describe('JSON checks', () => {
  it('json_equals ignores key order, follows a path and reads JSON lines as an array', () => {
    expect(ok({ json_equals: { a: 1, b: [1, 2] } }, run('{"b":[1,2],"a":1}\n'))).toBe(true);
    expect(ok({ json_equals: { a: 1 } }, run('{"a":"1"}'))).toBe(false);
    expect(ok({ json_equals: 'Paris', path: 'address.city' }, run('{"address":{"city":"Paris"}}'))).toBe(true);
    expect(parseJsonResult('{"a":1}\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(runCheck({ json_equals: {} }, run('not json'))).toEqual({ ok: false, reason: 'result is not JSON' });
  });

  it('json_includes finds the expected object anywhere, comparing scalars loosely', () => {
    const csvJson = '[{"name":"Alice","age":"30"},{"name":"Carol","age":"41","city":"Lisbon"}]';
    expect(ok({ json_includes: { name: 'Carol', age: 41 } }, run(csvJson))).toBe(true);
    expect(ok({ json_includes: { name: 'Carol', age: 40 } }, run(csvJson))).toBe(false);
    expect(ok({ json_includes: { title: 'x' } }, run('{"data":{"title":"x","n":1}}'))).toBe(true);
    expect(ok({ json_includes: { ports: [8080] } }, run('{"ports":[8080,8443]}'))).toBe(false);
  });
});

describe('file checks', () => {
  it('file_is reads magic bytes', () => {
    expect(ok({ file_is: 'png' }, run(fixture('image.png')))).toBe(true);
    expect(ok({ file_is: 'pdf' }, run(fixture('report.pdf')))).toBe(true);
    expect(ok({ file_is: 'zip' }, run(fixture('bundle.zip')))).toBe(true);
    expect(ok({ file_is: 'gzip' }, run(fixture('notes.txt.gz')))).toBe(true);
    expect(ok({ file_is: 'png' }, run(fixture('dot.gif')))).toBe(false);
    expect(ok({ file_is: 'tar' }, run('short'))).toBe(false);
  });

  it('image_size reads the dimensions of PNG, GIF and BMP', () => {
    expect(ok({ image_size: { width: 64, height: 32 } }, run(fixture('image.png')))).toBe(true);
    expect(runCheck({ image_size: { width: 32, height: 16 } }, run(fixture('image.png'))).reason).toBe(
      'image is 64x32, not 32x16',
    );
    expect(ok({ image_size: { width: 8, height: 6 } }, run(fixture('tile.bmp')))).toBe(true);
    expect(ok({ image_size: { width: 1, height: 1 } }, run(fixture('dot.gif')))).toBe(true);
    expect(runCheck({ image_size: { width: 1, height: 1 } }, run('text')).reason).toBe('result is not an image');
  });

  it('zip_entries and gunzip_contains look inside archives', () => {
    expect(ok({ zip_entries: ['readme.txt', 'todo.txt'] }, run(fixture('bundle.zip')))).toBe(true);
    expect(runCheck({ zip_entries: ['hello.txt'] }, run(fixture('bundle.zip'))).reason).toBe('zip lacks hello.txt');
    expect(ok({ gunzip_contains: 'moved to Thursday' }, run(fixture('notes.txt.gz')))).toBe(true);
    expect(ok({ gunzip_contains: 'tarball main file' }, run(fixture('project.tar.gz')))).toBe(true);
    expect(ok({ gunzip_contains: 'x' }, run(gzipSync('y')))).toBe(false);
  });

  it('dir_has, smaller_than_input and exit_code', () => {
    expect(ok({ dir_has: ['readme.txt', 'todo.txt'] }, run('', { dirFiles: ['readme.txt', 'notes/todo.txt'] }))).toBe(
      true,
    );
    expect(ok({ dir_has: ['odo.txt'] }, run('', { dirFiles: ['notes/todo.txt'] }))).toBe(false);
    expect(ok({ smaller_than_input: 'css' }, run('a{b:c}', { inputSizes: { css: 100 } }))).toBe(true);
    expect(ok({ smaller_than_input: 'css' }, run('', { inputSizes: { css: 100 } }))).toBe(false);
    expect(ok({ exit_code: 0 }, run('x', { exitCode: 1 }))).toBe(false);
  });
});

describe('combinators and validation', () => {
  it('all, any, not', () => {
    expect(ok({ all: [{ contains: 'a' }, { contains: 'b' }] }, run('ab'))).toBe(true);
    expect(runCheck({ all: [{ contains: 'a' }, { contains: 'c' }] }, run('ab')).reason).toBe('result lacks "c"');
    expect(ok({ any: [{ contains: 'x' }, { contains: 'b' }] }, run('ab'))).toBe(true);
    expect(ok({ not: { contains: 'a' } }, run('ab'))).toBe(false);
  });

  it('checkErrors names unknown kinds, bad regexes and wrong value types', () => {
    expect(checkErrors({ contains: 'x' })).toEqual([]);
    expect(checkErrors({ tool_is: 'marked' })[0]).toMatch(/exactly one of/);
    expect(checkErrors({ matches: '(' })[0]).toMatch(/check: Invalid regular expression/);
    expect(checkErrors({ all: [{ file_is: 'doc' }] })).toEqual([
      'check.all[0].file_is: one of ' + 'png, jpeg, gif, webp, bmp, ico, pdf, zip, gzip, tar, 7z, wasm',
    ]);
    expect(checkErrors({ image_size: { width: 1 } })).toEqual(['check.image_size: {width, height}']);
  });
});

describe('the task sets', () => {
  const minimum: Record<string, number> = {
    dev: 150,
    heldout: 75,
    'heldout-2': 100,
    'heldout-3': 60,
    'heldout-4': 60,
    'heldout-5': 50,
  };
  it.each(TASK_SETS)('%s: every task is well-formed, its files exist and its check is valid', (name) => {
    // loadTaskSet throws on an unknown field, a missing input file, a malformed check or a repeated id.
    const tasks = loadTaskSet(path.join(tasksDir, `${name}.json`));
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    expect(tasks.length).toBeGreaterThanOrEqual(minimum[name] as number);
    const categories = new Set(tasks.map((t) => t.category));
    expect([...categories].sort()).toEqual([
      'archives',
      'code-tooling',
      'crypto',
      'data-formats',
      'dates',
      'documents',
      'media',
      'messaging',
      'text',
      'web-pages',
    ]);
  });

  it("no set repeats another set's need or id word for word", () => {
    const seen = new Map<string, string>();
    const repeats: string[] = [];
    for (const name of TASK_SETS) {
      for (const t of loadTaskSet(path.join(tasksDir, `${name}.json`))) {
        for (const key of [`need:${t.need.toLowerCase()}`, `id:${t.id}`]) {
          const first = seen.get(key);
          if (first && first !== name) repeats.push(`${name} ${key} (also in ${first})`);
          if (!first) seen.set(key, name);
        }
      }
    }
    expect(repeats).toEqual([]);
  });

  it('heldout-5: every need records the public ask it was taken from; a malformed source is refused', () => {
    const tasks = loadTaskSet(path.join(tasksDir, 'heldout-5.json'));
    expect(tasks.filter((t) => !/^https:\/\/\S+$/.test(t.source ?? '')).map((t) => t.id)).toEqual([]);
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-source-'));
    try {
      const file = path.join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify([{ ...tasks[0], source: 'a forum somewhere' }]));
      expect(() => loadTaskSet(file)).toThrow(/source: the address of the public ask/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('make-files.mjs reproduces every generated input file byte for byte', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'agent-files-'));
    try {
      execFileSync(process.execPath, [path.join(tasksDir, 'make-files.mjs'), out]);
      const written = readdirSync(out);
      expect(written.length).toBeGreaterThan(20);
      for (const name of written) expect([name, readFileSync(path.join(out, name))]).toEqual([name, fixture(name)]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
