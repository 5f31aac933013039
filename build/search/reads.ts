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

/**
 * Whether every format a contract declares it reads (`format` of its input schema or of a file it takes) is
 * binary. An example's extension does not count: `sample.png` illustrates a command that reads any file.
 */
export function readsOnlyBinary(c: ToolContract): boolean {
  const terms = fileInputs(c)
    .flatMap((p) => formats(p.format))
    .concat(formats(c.logic.input_schema.format))
    .map(readTerm);
  return terms.length > 0 && terms.every((t) => t !== null && BINARY_FORMATS.has(t));
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
