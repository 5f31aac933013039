// What a command's placeholders can take. An agent holds inputs of some roles (a file to read, a small text
// file, a text, a URL, a JSON text); a contract fits it when its command has a distinct placeholder for each. Search
// uses this to answer "tools that can take what I have" (GET /api/v1/tools?inputs=…), the scripted agent to
// fill commands (build/eval/agent/fill.ts): one rule for both.
import { placeholderNames } from './command.ts';
import type { InputRole, SchemaObject, ToolContract } from './contract.ts';

type PropertySchema = NonNullable<SchemaObject['properties']>[string];

/**
 * What an agent can hold: a value of one of the placeholder roles, or a `text_file`, a file of text small enough
 * to read and pass as an argument (fileTextToPass), which fits a file placeholder as a path and a `text` or
 * `json` placeholder as its content: an agent holding a template or a JWT in a file can hand it to a command
 * that takes the text itself.
 */
export type HeldRole = InputRole | 'text_file';

/**
 * Roles an agent can say it holds when searching: what a command must receive (numbers and options may stay
 * defaults), and `output_dir`, a folder the results must be written into (a command that only prints or writes
 * one file cannot fill it).
 */
export const HELD_INPUT_ROLES = [
  'input_file',
  'text_file',
  'text',
  'url',
  'json',
  'output_dir',
] as const satisfies readonly HeldRole[];
export type HeldInputRole = (typeof HELD_INPUT_ROLES)[number];

/** For each placeholder role, the roles of held inputs that can fill it, best first. */
export const COMPATIBLE: Record<InputRole, HeldRole[]> = {
  input_file: ['input_file', 'text_file'],
  output_file: ['output_file'],
  output_dir: ['output_dir'],
  url: ['url', 'text'],
  text: ['text', 'url', 'json', 'number', 'text_file'],
  json: ['json', 'text', 'text_file'],
  number: ['number'],
  option: ['option'],
};

/** Whether a held input goes to this placeholder as its content rather than as what it is (a text file's text). */
export const passesContent = (placeholder: InputRole, held: HeldRole): boolean =>
  held === 'text_file' && placeholder !== 'input_file';

/**
 * The largest text file an agent passes as an argument: far below the 128 KiB Linux allows one argument, and
 * larger than the templates, tokens and JSON documents that commands take as text.
 */
export const MAX_TEXT_FILE_BYTES = 64 * 1024;

/**
 * The file's text when it is a text file an agent can pass as an argument (valid UTF-8, no NUL or other control
 * characters but tab, line ends and form feed, at most MAX_TEXT_FILE_BYTES), else null.
 */
export function fileTextToPass(bytes: Uint8Array): string | null {
  if (bytes.length > MAX_TEXT_FILE_BYTES) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? null : text;
}

/** The role a placeholder without a declared one most likely has, from its name, type and description. */
export function guessRole(name: string, prop: PropertySchema | undefined): InputRole {
  const n = name.toLowerCase();
  const d = (prop?.description ?? '').toLowerCase();
  if (/(^|_)(out|output|dest|destination)(_?dir|_?folder|_?directory)$/.test(n)) return 'output_dir';
  if (
    /(^|_)(out|output|dest|destination|target)(_?file|_?path)?$/.test(n) ||
    /\b(output|write[sn]?|save[sd]?) (file|path)\b/.test(d)
  ) {
    return 'output_file';
  }
  if (/(^|_)(url|uri|link|endpoint|href)$/.test(n) || prop?.format === 'uri') return 'url';
  if (prop?.type === 'number' || prop?.type === 'integer') return 'number';
  if (/(^|_)(file|path|filename|filepath|input|src|source)$/.test(n) || /\b(file|path) (to|of)\b/.test(d)) {
    return 'input_file';
  }
  if (/(^|_)json$/.test(n)) return 'json';
  return 'text';
}

/** The role of each placeholder of the contract's execute command (declared, else guessed), in order of use. */
export function placeholderRoles(c: ToolContract): InputRole[] {
  const cmd = c.action.execute_cmd;
  if (typeof cmd !== 'string') return [];
  const props = c.logic.input_schema.properties ?? {};
  return placeholderNames(cmd).map((p) => props[p]?.role ?? guessRole(p, props[p]));
}

/**
 * How many files the contract's command must be given to read: its required `input_file` placeholders (all of
 * them when the schema lists none as required). An agent cannot make a file up from the need's words, so a tool
 * needing more files than it holds cannot run for it.
 */
export function requiredFiles(c: ToolContract, roles: readonly InputRole[] = placeholderRoles(c)): number {
  const cmd = c.action.execute_cmd;
  if (typeof cmd !== 'string') return 0;
  const schema = c.logic.input_schema;
  const required = Array.isArray(schema.required) ? new Set(schema.required) : null;
  return placeholderNames(cmd).filter((p, i) => roles[i] === 'input_file' && (!required || required.has(p))).length;
}

/** The files among held inputs (a text file is a file too). */
export const heldFiles = (held: readonly HeldRole[]): number =>
  held.filter((h) => h === 'input_file' || h === 'text_file').length;

/**
 * Whether placeholders of these roles can take every held input, each input its own placeholder (a matching:
 * two files need two file placeholders). No held input: always true.
 */
export function takesInputs(roles: readonly InputRole[], held: readonly HeldRole[]): boolean {
  if (held.length === 0) return true;
  if (held.length > roles.length) return false;
  const used = new Array<boolean>(roles.length).fill(false);
  // The most constrained input first keeps the search tiny (commands have a handful of placeholders).
  const order = [...held].sort(
    (a, b) =>
      roles.filter((r) => COMPATIBLE[r].includes(a)).length - roles.filter((r) => COMPATIBLE[r].includes(b)).length,
  );
  const place = (i: number): boolean => {
    if (i === order.length) return true;
    for (let k = 0; k < roles.length; k++) {
      if (used[k] || !COMPATIBLE[roles[k]!].includes(order[i]!)) continue;
      used[k] = true;
      if (place(i + 1)) return true;
      used[k] = false;
    }
    return false;
  };
  return place(0);
}

/**
 * How placeholders of these roles take the held inputs: `direct` when each goes in as what it is (a text file as
 * a file), `content` only when some text file must be passed as its text, null when they cannot take them all.
 */
export function inputsFit(roles: readonly InputRole[], held: readonly HeldRole[]): 'direct' | 'content' | null {
  if (
    takesInputs(
      roles,
      held.map((h) => (h === 'text_file' ? 'input_file' : h)),
    )
  )
    return 'direct';
  return takesInputs(roles, held) ? 'content' : null;
}
