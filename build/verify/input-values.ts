// Values for the placeholders of an execute command: what the caller gives, else the property's `default`
// or first `examples` entry, else a value guessed from the property's role or name (a sample file for a
// file-like input, the sandbox's fixture page for a URL). Guesses are listed so the evidence says so.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { InputRole, ToolContract } from '../model/contract.ts';
import { FIXTURE_PORT } from './sandbox.ts';

export const SAMPLES_DIR = path.join(import.meta.dirname, 'samples');

/** Sample file per extension (build/verify/samples). No JPEG encoder here: `.jpg` gets the PNG's bytes. */
const SAMPLE_FOR_EXT: Record<string, string> = {
  txt: 'sample.txt',
  text: 'sample.txt',
  csv: 'sample.csv',
  json: 'sample.json',
  md: 'sample.md',
  markdown: 'sample.md',
  html: 'sample.html',
  htm: 'sample.html',
  xml: 'sample.xml',
  yaml: 'sample.yaml',
  yml: 'sample.yaml',
  png: 'sample.png',
  jpg: 'sample.png',
  jpeg: 'sample.png',
  gif: 'sample.png',
  webp: 'sample.png',
  pdf: 'sample.pdf',
  wav: 'sample.wav',
  mp3: 'sample.wav',
  audio: 'sample.wav',
  mp4: 'sample.mp4',
  db: 'sample.sqlite',
  sqlite: 'sample.sqlite',
  sqlite3: 'sample.sqlite',
  docx: 'sample.docx',
  xlsx: 'sample.xlsx',
  zip: 'sample.zip',
  js: 'sample.js',
  mjs: 'sample.js',
  cjs: 'sample.js',
  jsx: 'sample.js',
  ts: 'sample.ts',
  tsx: 'sample.ts',
  py: 'sample.py',
  css: 'sample.css',
};

/** Extension a placeholder's name or description suggests. */
const NAME_HINTS: [RegExp, string][] = [
  [/image|img|photo|picture|png/, 'png'],
  [/jpe?g/, 'jpg'],
  [/audio|sound|wav|mp3|speech/, 'wav'],
  [/video|movie|\bmp4\b/, 'mp4'],
  [/pdf/, 'pdf'],
  [/csv|table|spreadsheet/, 'csv'],
  [/json|schema/, 'json'],
  [/markdown|\bmd\b/, 'md'],
  [/html|page/, 'html'],
  [/xml|svg/, 'xml'],
  [/yaml|yml/, 'yaml'],
  [/sqlite|database|\bdb\b/, 'db'],
  [/docx|word document/, 'docx'],
  [/xlsx|excel|workbook/, 'xlsx'],
  [/\bzip\b|archive/, 'zip'],
];

interface PropertyInfo {
  type?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  role?: InputRole;
  format?: unknown;
}

const OUTPUT_FILE =
  /^(out|output|dest|destination|target|save|result)(_?(file|path|name|image|pdf|audio))?$|_out$|^out_/;
const OUTPUT_DIR = /^(out|output|dest|target)_?dir(ectory)?$/;
const INPUT_FILE = /file|path|input|src|source|image|img|photo|audio|pdf|csv|document|doc|dir$/;
const URL_NAME = /url|uri|link|href|website|site|endpoint/;
const NUMBER_NAME =
  /^(n|num|count|number|size|width|height|limit|length|max|min|depth|seconds|level|amount|quantity|a|b|x|y)$/;

function extOf(value: string): string | undefined {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(value);
  return m ? (m[1] as string).toLowerCase() : undefined;
}

/** The sample file for the kind of file a name or description speaks of (`config JSON` → sample.json), or null. */
export function hintedSample(name: string, description = ''): string | null {
  const ext = hintedExt(name, { description });
  return ext ? (SAMPLE_FOR_EXT[ext] ?? null) : null;
}

function hintedExt(name: string, info: PropertyInfo): string | undefined {
  const text =
    `${name} ${info.description ?? ''} ${Array.isArray(info.format) ? info.format.join(' ') : (info.format ?? '')}`.toLowerCase();
  return NAME_HINTS.find(([re]) => re.test(text))?.[1];
}

function guessRole(name: string, info: PropertyInfo): InputRole {
  if (info.role) return info.role;
  const n = name.toLowerCase();
  if (OUTPUT_DIR.test(n)) return 'output_dir';
  if (OUTPUT_FILE.test(n)) return 'output_file';
  if (URL_NAME.test(n) || info.type === 'url') return 'url';
  if (INPUT_FILE.test(n)) return 'input_file';
  if (info.type === 'integer' || info.type === 'number' || NUMBER_NAME.test(n)) return 'number';
  return 'text';
}

export interface FilledInput {
  value: string;
  /** Sample copied into the work folder under `value` (a relative path), or under `samplePath` when set. */
  sample?: string;
  /** Where the sample goes when the value is not itself a path (a `sqlite:///file.db` URL). */
  samplePath?: string;
  /** An output the command writes (file or folder), relative to the work folder. */
  output?: 'file' | 'dir';
  /** A URL on the sandbox's own fixture server (the tool's network use can be checked offline). */
  fixture?: true;
  /** How the value was chosen: given, default, example, guessed. */
  source: 'given' | 'default' | 'example' | 'guessed';
}

/** The sample for an extension; a JSON input described as a schema gets a JSON Schema that fits sample.json. */
function sampleFile(ext: string | undefined, name: string, info: PropertyInfo, value: string): string {
  // Test runners look for test files by name: give `x.test.js` a test.
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(value)) return 'sample.test.js';
  if (ext === 'json' && /schema/i.test(`${name} ${info.description ?? ''}`)) return 'sample.schema.json';
  return SAMPLE_FOR_EXT[ext ?? 'txt'] ?? 'sample.txt';
}

/** One placeholder's value. `given` values come from the caller (benchmarks, tests) and win. */
export function fillInput(name: string, info: PropertyInfo, given?: string): FilledInput {
  const role = guessRole(name, info);
  const declared = info.default ?? (Array.isArray(info.examples) ? info.examples[0] : undefined);
  const source: FilledInput['source'] =
    given !== undefined
      ? 'given'
      : info.default !== undefined
        ? 'default'
        : declared !== undefined
          ? 'example'
          : 'guessed';
  const text =
    given ?? (declared === undefined ? undefined : typeof declared === 'string' ? declared : JSON.stringify(declared));
  switch (role) {
    case 'input_file': {
      // A caller that gives an empty value leaves an optional file out (an attachment, a text file read instead
      // of the text): no sample may stand in for it, or the command would read the sample instead of the text.
      if (given === '') return { value: '', source };
      // A file the tool reads: the declared name (or a name with the right extension) holding a sample.
      const ext = extOf(text ?? '') ?? hintedExt(name, info) ?? 'txt';
      const value = text && !text.includes('..') && !path.isAbsolute(text) ? text : `input-${name}.${ext}`;
      // A sample shipped under the example's own name (sum.test.js, schema.prisma) fits best.
      const named = path.basename(value);
      const sample = existsSync(path.join(SAMPLES_DIR, named)) ? named : sampleFile(ext, name, info, value);
      return { value, sample, source };
    }
    case 'output_file': {
      const ext = extOf(text ?? '') ?? hintedExt(name, info) ?? 'txt';
      const value = text && !text.includes('..') && !path.isAbsolute(text) ? text : `output-${name}.${ext}`;
      return { value, output: 'file', source };
    }
    case 'output_dir':
      return {
        value: text && !text.includes('..') && !path.isAbsolute(text) ? text : `out-${name}`,
        output: 'dir',
        source,
      };
    case 'url':
      // The execute step has no network: web URLs point at the sandbox's own fixture server unless given. A
      // declared address of another kind (redis://, mongodb://, smtps://, ws://) names a server the fixture is
      // not, so it is kept: the tool then needs the network and is checked as far as it loads. So is a web
      // address on the user's own machine with a port (http://localhost:8000, a Chroma, Qdrant or MCP server),
      // a service to run, and a git repository: a sample HTML page can stand in for neither.
      if (given !== undefined) return { value: given, source };
      if (text !== undefined && (!/^https?:\/\//i.test(text) || LOCAL_SERVICE.test(text))) {
        // A database URL naming a file in the working folder: that file gets the sample database.
        const file = SQLITE_FILE.exec(text)?.[1];
        if (file && !file.includes('..')) {
          return {
            value: text,
            source,
            sample: SAMPLE_FOR_EXT[extOf(file) ?? 'db'] ?? 'sample.sqlite',
            samplePath: file,
          };
        }
        return { value: text, source };
      }
      return { value: `http://127.0.0.1:${FIXTURE_PORT}/${fixtureFile(name, info)}`, source: 'guessed', fixture: true };
    case 'number':
      return { value: text ?? '2', source };
    case 'json':
      return { value: text ?? '{"name":"Ada","age":36}', source };
    default:
      return { value: text ?? 'The quick brown fox jumps over the lazy dog.', source };
  }
}

/** `sqlite:///notes.db` (relative: three slashes, then no fourth), with or without a driver (`sqlite+pysqlite`). */
const SQLITE_FILE = /^sqlite(?:\+\w+)?:\/\/\/([^/?#][^?#]*)$/i;

/** The fixture page for a web URL, or the sample video or sound when the URL is said to be a media link. */
function fixtureFile(name: string, info: PropertyInfo): string {
  const ext = hintedExt(name, info);
  return ext === 'mp4' || ext === 'wav' ? (SAMPLE_FOR_EXT[ext] as string) : 'sample.html';
}

/**
 * Addresses a sample page cannot stand in for: http(s) on a loopback host with an explicit port (a server the
 * user runs) and git repositories (`….git`, which git clones through its own protocol).
 */
const LOCAL_SERVICE = /^https?:\/\/((localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0):\d+(\/|$)|[^?#]*\.git\/?$)/i;

/** Values for every placeholder of the command, from the contract's input schema and the caller's values. */
export function fillInputs(
  contract: ToolContract,
  placeholders: string[],
  given: Record<string, string> = {},
): Record<string, FilledInput> {
  const props = (contract.logic.input_schema.properties ?? {}) as Record<string, PropertyInfo>;
  const out: Record<string, FilledInput> = {};
  for (const name of placeholders) out[name] = fillInput(name, props[name] ?? {}, given[name]);
  return out;
}
