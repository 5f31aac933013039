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

/** The read terms of a contract: its input format and the formats of the files its properties take. */
export function readTerms(c: ToolContract): string[] {
  const schema = c.logic.input_schema;
  const words = [...formats(schema.format)];
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if ((p.role ?? guessRole(name, p)) !== 'input_file') continue;
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
