// The scripted agent's filling rules: from a contract's own input_schema (names, roles, types, descriptions,
// examples, defaults) and a task's inputs with their roles, a value for every placeholder of the command,
// or the reason one cannot be filled. Pure: the caller stages the files and runs the command.
import path from 'node:path';
import type { InputRole, SchemaObject } from '../../model/contract.ts';
import { COMPATIBLE, guessRole, type HeldRole, passesContent } from '../../model/input-roles.ts';
import { bestAssignment } from './assign.ts';
import { datePatternFor, patternDialect, quotedTexts } from './date-pattern.ts';
import { optionNamedByNeed, placeholderSide, textAsJsonList, valueMention } from './need-values.ts';
import type { TaskInput } from './tasks.ts';

type PropertySchema = NonNullable<SchemaObject['properties']>[string];

export type FillSource = 'task' | 'need' | 'default' | 'example' | 'enum' | 'generated';

export interface FillProblem {
  /** The placeholder that could not be filled, or the task input the command has no place for. */
  name: string;
  /**
   * undescribed: a placeholder input_schema does not describe; unfilled: described, but nothing to fill it
   * with; no_place: a task input the command never receives (the tool does another job).
   */
  kind: 'undescribed' | 'unfilled' | 'no_place';
  reason: string;
}

export interface FillResult {
  values: Record<string, string>;
  /** Where each placeholder's value came from. */
  sources: Record<string, FillSource>;
  /** The roles the rules settled on (declared, or guessed for contracts without roles). */
  roles: Record<string, InputRole>;
  /** Files and folders the command is expected to write, relative to the work folder. */
  outputs: { placeholder: string; path: string; role: 'output_file' | 'output_dir' }[];
  problems: FillProblem[];
}

/**
 * A task input as the agent holds it: an input file it can read as text is a `text_file` whose `value` is that
 * text (input-roles.ts fileTextToPass), so it fits a text or JSON placeholder too.
 */
export type HeldInput = Omit<TaskInput, 'role'> & { role: HeldRole };

export interface FillRequest {
  schema: SchemaObject;
  /** The command's placeholders in order of use. */
  placeholders: string[];
  inputs: HeldInput[];
  /** Path of each staged input file (by task input name), as the command will see it. */
  staged: Record<string, string>;
  /** Folder, relative to the work folder, that output files and folders are named in. */
  outDir: string;
  /** The need in words: an option it names is taken over the default. */
  need?: string;
}

const words = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** How well a task input's name fits a placeholder: 3 same name, 2 one name in the other, 1 a shared word. */
export function nameScore(placeholder: string, prop: PropertySchema | undefined, input: string): number {
  const p = norm(placeholder);
  const i = norm(input);
  if (p === i) return 3;
  if (p.length > 2 && i.length > 2 && (p.includes(i) || i.includes(p))) return 2;
  const mine = new Set([...words(placeholder), ...words(prop?.description ?? '')]);
  return words(input).some((w) => mine.has(w)) ? 1 : 0;
}

function extensionOf(value: unknown): string {
  return typeof value === 'string' ? path.extname(value) : '';
}

const exampleOf = (prop: PropertySchema | undefined) => prop?.examples?.[0] ?? prop?.default;

// Task inputs a command may leave out: it may print what the task wants in a file, numbers and options have
// defaults. A folder to write into it must take (search was told so: input-roles.ts HELD_INPUT_ROLES).
const MAY_STAY_OUT: readonly HeldRole[] = ['output_file', 'number', 'option'];

/** Where the need mentions an input's value, or undefined (files, values not in the need). */
function mentionAt(input: HeldInput, need: string | undefined): number | undefined {
  if (!need || input.role === 'text_file' || input.value === undefined) return undefined;
  return valueMention(need, String(input.value))?.at;
}

/** +1 when the need puts the input on the placeholder's side of a conversion, -1 on the other side, else 0. */
function directionAgreement(placeholder: string, input: HeldInput, need: string | undefined): number {
  const side = placeholderSide(placeholder);
  if (!side || !need || input.role === 'text_file' || input.value === undefined) return 0;
  const named = valueMention(need, String(input.value))?.side;
  return named ? (named === side ? 1 : -1) : 0;
}

/** What a placeholder of this role gets from the input: a file's staged path, or a text file's text. */
function taskValue(input: HeldInput, role: InputRole, staged: Record<string, string>): string | undefined {
  if (input.role === 'input_file' || (input.role === 'text_file' && !passesContent(role, input.role))) {
    return staged[input.name];
  }
  if (input.value === undefined) return undefined;
  return typeof input.value === 'string' ? input.value : JSON.stringify(input.value);
}

/**
 * A date pattern placeholder (its example or default is one: `yyyy-MM-dd`, `YYYY-MM-DD`, `%Y-%m-%d`) when the need
 * shows the form it wants ("as 'Thursday, July 4, 2024'"): the pattern that renders the task's date so.
 */
function datePatternShown(prop: PropertySchema, req: FillRequest): string | undefined {
  const example = [prop.default, ...(prop.examples ?? [])].find((v): v is string => typeof v === 'string');
  if (!req.need || !example || !patternDialect(example)) return undefined;
  const dates = [...req.inputs.map((i) => (typeof i.value === 'string' ? i.value : '')), req.need]
    .map((v) => ISO_DATE.exec(v)?.[0])
    .filter((d): d is string => d !== undefined);
  for (const shown of quotedTexts(req.need)) {
    for (const date of dates) {
      const pattern = datePatternFor(shown, date, example);
      if (pattern) return pattern;
    }
  }
  return undefined;
}
const ISO_DATE = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?/;

/** Fills every placeholder or says which cannot be filled and why. */
export function fillPlaceholders(req: FillRequest): FillResult {
  const props = req.schema.properties ?? {};
  const result: FillResult = { values: {}, sources: {}, roles: {}, outputs: [], problems: [] };
  const used = new Set<string>();
  const roleOf = (p: string): InputRole => props[p]?.role ?? guessRole(p, props[p]);
  for (const p of req.placeholders) result.roles[p] = roleOf(p);

  const assign = (p: string, input: HeldInput) => {
    used.add(input.name);
    const role = result.roles[p] as InputRole;
    if (role === 'output_file' || role === 'output_dir') {
      const ext =
        role === 'output_file'
          ? input.ext || extensionOf(props[p]?.default) || extensionOf(props[p]?.examples?.[0])
          : '';
      const out = path.posix.join(req.outDir, `${input.name}${ext}`);
      result.values[p] = out;
      result.outputs.push({ placeholder: p, path: out, role });
    } else {
      const value = taskValue(input, role, req.staged);
      if (value === undefined) return;
      const heldText = input.role === 'text' || input.role === 'text_file';
      const list = role === 'json' && heldText ? textAsJsonList(value, exampleOf(props[p])) : undefined;
      result.values[p] = list ?? value;
    }
    result.sources[p] = 'task';
  };
  // All at once (assign.ts): the most inputs placed, the best-named pairs, the direction the need gives, a text
  // file to a file placeholder before one that takes its content, the need's order, the command's order.
  // An option or an undescribed placeholder takes a task input only when its name says it wants that input.
  const open = req.placeholders;
  const rest = req.inputs;
  const chosen = bestAssignment(
    open.length,
    rest.length,
    (pi, ii) => {
      const p = open[pi] as string;
      const i = rest[ii] as HeldInput;
      const role = result.roles[p] as InputRole;
      if (!COMPATIBLE[role].includes(i.role)) return null;
      const name = nameScore(p, props[p], i.name);
      if (name < 2 && (role === 'option' || !props[p])) return null;
      return { name, direction: directionAgreement(p, i, req.need), content: passesContent(role, i.role) };
    },
    rest.map((i) => mentionAt(i, req.need)),
    rest.map((i) => !MAY_STAY_OUT.includes(i.role)),
  );
  chosen.forEach((pi, ii) => {
    if (pi >= 0) assign(open[pi] as string, rest[ii] as HeldInput);
  });

  for (const p of req.placeholders) {
    if (p in result.values) continue;
    const prop = props[p];
    const role = result.roles[p] as InputRole;
    if (role === 'output_file' || role === 'output_dir') {
      // The task wants the result on stdout or did not name a file: the agent picks a name.
      const ext = role === 'output_file' ? extensionOf(prop?.default) || extensionOf(prop?.examples?.[0]) : '';
      const out = path.posix.join(req.outDir, `${p}${ext}`);
      result.values[p] = out;
      result.sources[p] = 'generated';
      result.outputs.push({ placeholder: p, path: out, role });
      continue;
    }
    if (!prop) {
      result.problems.push({ name: p, kind: 'undescribed', reason: 'not described in input_schema' });
      continue;
    }
    // An optional file (its default says what "none" is, often empty) may stay at it; any other needs the task's.
    if (role === 'input_file' && typeof prop.default === 'string') {
      result.values[p] = prop.default;
      result.sources[p] = 'default';
      continue;
    }
    if (role === 'input_file') {
      result.problems.push({ name: p, kind: 'unfilled', reason: 'a file to read, and the task gives no file for it' });
      continue;
    }
    const named =
      datePatternShown(prop, req) ??
      (req.need && (role === 'option' || prop.enum)
        ? optionNamedByNeed(p, [...(prop.enum ?? []), ...(prop.examples ?? []), prop.default], req.need)
        : undefined);
    if (named !== undefined) {
      result.values[p] = named;
      result.sources[p] = 'need';
      continue;
    }
    const fallback: [FillSource, unknown][] = [
      ['default', prop.default],
      ['example', prop.examples?.[0]],
      ['enum', prop.enum?.[0]],
    ];
    const found = fallback.find(([, v]) => v !== undefined && v !== null);
    if (found) {
      const [source, v] = found;
      result.values[p] = typeof v === 'string' ? v : JSON.stringify(v);
      result.sources[p] = source;
      continue;
    }
    result.problems.push({
      name: p,
      kind: 'unfilled',
      reason: `no task input of role ${role} and no default, example or enum`,
    });
  }

  // An input the command never receives means the command does not do this task (numbers may stay defaults).
  for (const input of req.inputs) {
    if (used.has(input.name) || MAY_STAY_OUT.includes(input.role)) continue;
    result.problems.push({
      name: input.name,
      kind: 'no_place',
      reason: `the command has no placeholder for the task's ${input.role} input`,
    });
  }
  return result;
}
