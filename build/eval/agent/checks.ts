// The data-driven checks of the agent task sets: each says what a correct result looks like without naming
// the tool that should produce it. Pure: the caller reads the result, the output folder and the inputs' sizes.
import { gunzipSync, unzipSync } from 'fflate';
import { imageSize } from 'image-size';

/** What one run left behind, as the checks see it. */
export interface RunResult {
  /** The result: the output file the contract names as its target, else stdout. */
  result: Uint8Array;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** Relative paths of the files under the output folder, when the task asked for one. */
  dirFiles?: string[];
  /** Byte sizes of the task's input files, by input name. */
  inputSizes?: Record<string, number>;
}

export type Check =
  | { contains: string | string[]; ignore_case?: boolean }
  | { not_contains: string | string[]; ignore_case?: boolean }
  | { matches: string; flags?: string }
  | { log_matches: string; flags?: string }
  | { equals: string }
  | { json_equals: unknown; path?: string }
  | { json_includes: unknown; path?: string }
  | { number_near: number; tolerance?: number }
  | { file_is: MagicKind }
  | { image_size: { width: number; height: number } }
  | { zip_entries: string[] }
  | { gunzip_contains: string }
  | { dir_has: string[] }
  | { min_lines: number }
  | { max_line_length: number }
  | { smaller_than_input: string }
  | { exit_code: number }
  | { all: Check[] }
  | { any: Check[] }
  | { not: Check };

export interface CheckOutcome {
  ok: boolean;
  /** Why it failed (the first failing part), empty when ok. */
  reason: string;
}

// Magic numbers at a fixed offset; the kinds a task may ask for.
const MAGIC = {
  png: [0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  jpeg: [0, [0xff, 0xd8, 0xff]],
  gif: [0, [0x47, 0x49, 0x46, 0x38]],
  webp: [8, [0x57, 0x45, 0x42, 0x50]],
  bmp: [0, [0x42, 0x4d]],
  ico: [0, [0x00, 0x00, 0x01, 0x00]],
  pdf: [0, [0x25, 0x50, 0x44, 0x46]],
  zip: [0, [0x50, 0x4b, 0x03, 0x04]],
  gzip: [0, [0x1f, 0x8b]],
  tar: [257, [0x75, 0x73, 0x74, 0x61, 0x72]],
  '7z': [0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  wasm: [0, [0x00, 0x61, 0x73, 0x6d]],
} as const satisfies Record<string, readonly [number, readonly number[]]>;
export type MagicKind = keyof typeof MAGIC;

const KEYS = [
  'contains',
  'not_contains',
  'matches',
  'log_matches',
  'equals',
  'json_equals',
  'json_includes',
  'number_near',
  'file_is',
  'image_size',
  'zip_entries',
  'gunzip_contains',
  'dir_has',
  'min_lines',
  'max_line_length',
  'smaller_than_input',
  'exit_code',
  'all',
  'any',
  'not',
] as const;

const pass: CheckOutcome = { ok: true, reason: '' };
const fail = (reason: string): CheckOutcome => ({ ok: false, reason });
const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
const short = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** Problems with a check as written in a task file (unknown kind, bad regex, wrong value types). */
export function checkErrors(check: unknown, where = 'check'): string[] {
  if (!check || typeof check !== 'object' || Array.isArray(check)) return [`${where}: must be an object`];
  const keys = Object.keys(check).filter((k) => (KEYS as readonly string[]).includes(k));
  if (keys.length !== 1) return [`${where}: must have exactly one of ${KEYS.join(', ')}`];
  const c = check as Record<string, unknown>;
  const key = keys[0] as (typeof KEYS)[number];
  const v = c[key];
  const errors: string[] = [];
  const isStrings = (x: unknown) =>
    typeof x === 'string' || (Array.isArray(x) && x.every((s) => typeof s === 'string'));
  switch (key) {
    case 'all':
    case 'any':
      if (!Array.isArray(v) || v.length === 0) return [`${where}.${key}: must be a non-empty list`];
      for (const [i, sub] of v.entries()) errors.push(...checkErrors(sub, `${where}.${key}[${i}]`));
      return errors;
    case 'not':
      return checkErrors(v, `${where}.not`);
    case 'matches':
    case 'log_matches':
      try {
        new RegExp(String(v), String(c.flags ?? ''));
      } catch (e) {
        errors.push(`${where}: ${(e as Error).message}`);
      }
      if (typeof v !== 'string') errors.push(`${where}.${key}: must be a regular expression`);
      return errors;
    case 'contains':
    case 'not_contains':
    case 'zip_entries':
    case 'dir_has':
      return isStrings(v) ? [] : [`${where}.${key}: must be a string or a list of strings`];
    case 'file_is':
      return Object.hasOwn(MAGIC, String(v)) ? [] : [`${where}.file_is: one of ${Object.keys(MAGIC).join(', ')}`];
    case 'image_size': {
      const s = v as { width?: unknown; height?: unknown } | null;
      return s && Number.isInteger(s.width) && Number.isInteger(s.height)
        ? []
        : [`${where}.image_size: {width, height}`];
    }
    case 'number_near':
    case 'min_lines':
    case 'max_line_length':
    case 'exit_code':
      return typeof v === 'number' ? [] : [`${where}.${key}: must be a number`];
    case 'equals':
    case 'gunzip_contains':
    case 'smaller_than_input':
      return typeof v === 'string' ? [] : [`${where}.${key}: must be a string`];
    default:
      return [];
  }
}

/** Every number written in a text (thousands separators allowed); digits inside words do not count. */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?<![\w.])(-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w]|\.\d)/g)) {
    out.push(Number(`${m[1]}${m[2]?.replaceAll(',', '')}${m[3] ?? ''}`));
  }
  return out;
}

/** The result read as JSON: one document, or JSON lines as an array; undefined when it is neither. */
export function parseJsonResult(text: string): unknown {
  const t = text.trim();
  try {
    return JSON.parse(t);
  } catch {
    /* try JSON lines next */
  }
  const lines = t
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > 1) {
    try {
      return lines.map((l) => JSON.parse(l));
    } catch {
      /* not JSON lines either */
    }
  }
  return undefined;
}

function at(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let cur = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Deep equality where object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as never)[k], (b as never)[k]));
}

// Scalars compare loosely (30 and "30", true and "true"): formats like CSV and INI carry no types.
function includes(expected: unknown, actual: unknown): boolean {
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    if (Array.isArray(expected)) {
      return (
        Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => includes(e, actual[i]))
      );
    }
    return Object.entries(expected).every(([k, e]) => Object.hasOwn(actual, k) && includes(e, (actual as never)[k]));
  }
  if (actual !== null && typeof actual === 'object') return false;
  return String(expected) === String(actual);
}

/** True when the value or any value nested in it includes `expected` (see `includes`). */
export function includesSomewhere(expected: unknown, actual: unknown): boolean {
  if (includes(expected, actual)) return true;
  if (actual === null || typeof actual !== 'object') return false;
  return Object.values(actual).some((v) => includesSomewhere(expected, v));
}

function hasMagic(bytes: Uint8Array, kind: MagicKind): boolean {
  const [offset, sig] = MAGIC[kind];
  return bytes.length >= offset + sig.length && sig.every((b, i) => bytes[offset + i] === b);
}

function zipNames(bytes: Uint8Array): string[] | null {
  try {
    return Object.keys(unzipSync(bytes));
  } catch {
    return null;
  }
}

const endsWithPath = (name: string, want: string) => name === want || name.endsWith(`/${want}`);

/** Runs one check against a run's result. */
export function runCheck(check: Check, run: RunResult): CheckOutcome {
  const text = new TextDecoder().decode(run.result);
  const c = check as Record<string, unknown>;
  if ('all' in check) {
    for (const sub of check.all) {
      const o = runCheck(sub, run);
      if (!o.ok) return o;
    }
    return pass;
  }
  if ('any' in check) {
    const outcomes = check.any.map((sub) => runCheck(sub, run));
    return outcomes.some((o) => o.ok) ? pass : fail(outcomes.map((o) => o.reason).join(' and '));
  }
  if ('not' in check)
    return runCheck(check.not, run).ok ? fail(`unexpectedly passed: ${JSON.stringify(check.not)}`) : pass;
  if ('contains' in check || 'not_contains' in check) {
    const want = 'contains' in check;
    const fold = (s: string) => (c.ignore_case ? s.toLowerCase() : s);
    const hay = fold(text);
    for (const s of list((want ? c.contains : c.not_contains) as string | string[])) {
      if (hay.includes(fold(s)) !== want) return fail(`result ${want ? 'lacks' : 'contains'} ${short(s)}`);
    }
    return pass;
  }
  if ('matches' in check) {
    return new RegExp(check.matches, check.flags).test(text) ? pass : fail(`result does not match /${check.matches}/`);
  }
  if ('log_matches' in check) {
    const log = `${run.stdout}\n${run.stderr}`;
    return new RegExp(check.log_matches, check.flags).test(log)
      ? pass
      : fail(`output does not match /${check.log_matches}/`);
  }
  if ('equals' in check) {
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    return norm(text) === norm(check.equals)
      ? pass
      : fail(`result is ${short(text.trim())}, not ${short(check.equals)}`);
  }
  if ('json_equals' in check || 'json_includes' in check) {
    const parsed = parseJsonResult(text);
    if (parsed === undefined) return fail('result is not JSON');
    const value = at(parsed, check.path);
    if ('json_equals' in check)
      return deepEqual(value, check.json_equals) ? pass : fail('JSON differs from the expected value');
    return includesSomewhere(check.json_includes, value)
      ? pass
      : fail(`JSON lacks ${JSON.stringify(check.json_includes)}`);
  }
  if ('number_near' in check) {
    const tol = check.tolerance ?? 0;
    return numbersIn(text).some((n) => Math.abs(n - check.number_near) <= tol)
      ? pass
      : fail(`no number within ${tol} of ${check.number_near} in the result`);
  }
  if ('file_is' in check)
    return hasMagic(run.result, check.file_is) ? pass : fail(`result is not a ${check.file_is} file`);
  if ('image_size' in check) {
    let dims: { width?: number; height?: number };
    try {
      dims = imageSize(run.result);
    } catch {
      return fail('result is not an image');
    }
    const { width, height } = check.image_size;
    return dims.width === width && dims.height === height
      ? pass
      : fail(`image is ${dims.width}x${dims.height}, not ${width}x${height}`);
  }
  if ('zip_entries' in check) {
    const names = zipNames(run.result);
    if (!names) return fail('result is not a zip archive');
    const missing = check.zip_entries.filter((w) => !names.some((n) => endsWithPath(n, w)));
    return missing.length ? fail(`zip lacks ${missing.join(', ')}`) : pass;
  }
  if ('gunzip_contains' in check) {
    let inner: string;
    try {
      inner = new TextDecoder().decode(gunzipSync(run.result));
    } catch {
      return fail('result is not gzip data');
    }
    return inner.includes(check.gunzip_contains)
      ? pass
      : fail(`decompressed result lacks ${short(check.gunzip_contains)}`);
  }
  if ('dir_has' in check) {
    const files = run.dirFiles ?? [];
    const missing = check.dir_has.filter((w) => !files.some((f) => endsWithPath(f, w)));
    return missing.length ? fail(`output folder lacks ${missing.join(', ')}`) : pass;
  }
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if ('min_lines' in check) {
    const n = lines.filter((l) => l.trim()).length;
    return n >= check.min_lines ? pass : fail(`result has ${n} non-empty lines, fewer than ${check.min_lines}`);
  }
  if ('max_line_length' in check) {
    const longest = Math.max(0, ...lines.map((l) => [...l].length));
    return longest <= check.max_line_length ? pass : fail(`a line is ${longest} characters long`);
  }
  if ('smaller_than_input' in check) {
    const size = run.inputSizes?.[check.smaller_than_input];
    if (size === undefined) return fail(`no input named ${check.smaller_than_input}`);
    return run.result.length > 0 && run.result.length < size
      ? pass
      : fail(`result is ${run.result.length} bytes, input ${size}`);
  }
  if ('exit_code' in check) return run.exitCode === check.exit_code ? pass : fail(`exit code ${run.exitCode}`);
  return fail(`unknown check ${JSON.stringify(check)}`);
}
