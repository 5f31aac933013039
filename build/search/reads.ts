// What a command reads. "convert XML to YAML" is met by a tool that reads XML; a YAML library that only writes
// YAML shares one word with the need, and so does an XML parser, so words alone tie them. A contract says what its
// command reads: `input_schema.format` and the file it takes (a property's `format`, the extension of its
// examples: `document.docx`). Documents index each read format as the term `<format`; a query stating a conversion
// ("A to B", direction.ts) adds `<A` as a bonus term (not a concept), so a tool that reads the source gains and
// one that reads the target gains nothing. Pure, shared by both engines through documents.ts and plan.ts.
import type { ToolContract } from '../model/contract.ts';
import { guessRole } from '../model/input-roles.ts';
import { analyze } from './tokenize.ts';

// File extensions spelled otherwise than the format a need names: both sides use the format's word.
const FORMAT_OF_EXTENSION: Record<string, string> = {
  md: 'markdown',
  markdown: 'markdown',
  yml: 'yaml',
  htm: 'html',
  jpg: 'jpeg',
  txt: 'text',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  py: 'python',
  rst: 'restructuredtext',
  tgz: 'tar',
  gz: 'gzip',
};

// Schema formats that say how a string is written, not what file format a command reads.
const NOT_FILE_FORMATS = new Set(['uri', 'url', 'email', 'date', 'date-time', 'time', 'http', 'https', 'ws', 'wss']);

/** The term a format word indexes as (`<markdown`), or null for a word that is no format name. */
export function readTerm(word: string): string | null {
  const w = word.toLowerCase().replace(/^\./, '');
  if (!/^[a-z][a-z0-9]{1,15}$/.test(w) || NOT_FILE_FORMATS.has(w)) return null;
  const term = analyze(FORMAT_OF_EXTENSION[w] ?? w)[0];
  return term ? `<${term}` : null;
}

const EXTENSION = /\.([A-Za-z][A-Za-z0-9]{0,15})$/;
const formats = (f: unknown): string[] =>
  (Array.isArray(f) ? f : [f]).filter((x): x is string => typeof x === 'string');

// Formats whose files are not text: a command reading only these cannot take a text file an agent holds (a .docx
// reader for "make a PDF out of this .txt"). Spelled as format words; compared through readTerm.
const BINARY_FORMATS = new Set(
  [
    'pdf docx doc xlsx xlsm xls pptx odt ods odp epub zip gzip tar bz2 xz zst 7z rar br',
    'png jpeg gif bmp webp tiff avif heic ico image wav mp3 flac ogg m4a aac audio mp4 webm mov mkv avi video',
    'ttf otf woff woff2 sqlite parquet arrow feather gguf onnx wasm bin',
  ]
    .join(' ')
    .split(' ')
    .map(readTerm),
);

/** Whether a read term (`<pdf`) names a binary format. */
export const isBinaryFormat = (term: string): boolean => BINARY_FORMATS.has(term);

/**
 * Whether every format a contract declares it reads (declaredReads) is binary. An example's extension does not
 * count: `sample.png` illustrates a command that reads any file.
 */
export function readsOnlyBinary(declared: readonly string[]): boolean {
  return declared.length > 0 && declared.every(isBinaryFormat);
}

/** The read terms of the formats a contract declares (`format` of its input schema or of a file it takes). */
export function declaredReads(c: ToolContract): string[] {
  const words = fileInputs(c)
    .flatMap((p) => formats(p.format))
    .concat(formats(c.logic.input_schema.format));
  // "tar.gz" declares tar and gzip.
  const terms = words.flatMap((w) => w.split('.').map(readTerm));
  return [...new Set(terms.filter((t): t is string => t !== null))];
}

// A reader of the key also reads the values: JSON is valid JSON5, JSONC, HJSON and YAML; plain text is Markdown.
const ALSO_READS: Record<string, string[]> = {
  json5: ['json'],
  jsonc: ['json'],
  hjson: ['json'],
  yaml: ['json'],
  markdown: ['text'],
};
const alsoReads = new Map(Object.entries(ALSO_READS).map(([k, v]) => [readTerm(k)!, v.map((f) => readTerm(f)!)]));

/**
 * The read terms of a format or extension ("md", ".XML", "tar.gz" → tar and gzip), for a held file or a declared
 * format. "text" says nothing about what a reader needs: none.
 */
export function formatTerms(format: string): string[] {
  const text = readTerm('text');
  return format
    .split('.')
    .map(readTerm)
    .filter((t): t is string => t !== null && t !== text);
}

/**
 * Whether a tool declaring these read terms can read one of the held formats (read terms): true when it declares
 * none (nothing to go by) or the caller named none.
 */
export function readsHeld(declared: readonly string[], held: readonly string[]): boolean {
  if (declared.length === 0 || held.length === 0) return true;
  return held.some((h) => declared.some((d) => d === h || (alsoReads.get(d)?.includes(h) ?? false)));
}

const fileInputs = (c: ToolContract) =>
  Object.entries(c.logic.input_schema.properties ?? {})
    .filter(([name, p]) => (p.role ?? guessRole(name, p)) === 'input_file')
    .map(([, p]) => p);

/** The read terms of a contract: its input format and the formats of the files its properties take. */
export function readTerms(c: ToolContract): string[] {
  const schema = c.logic.input_schema;
  const words = [...formats(schema.format)];
  for (const p of fileInputs(c)) {
    words.push(...formats(p.format));
    for (const e of p.examples ?? []) {
      const ext = typeof e === 'string' && !/^[a-z]+:\/\//i.test(e) ? EXTENSION.exec(e) : null;
      if (ext) words.push(ext[1]!);
    }
  }
  const out: string[] = [];
  for (const w of words) {
    const t = readTerm(w);
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}
