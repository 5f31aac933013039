// The scripted agent's filling rules: from a contract's own input_schema (names, roles, types, descriptions,
// examples, defaults) and a task's inputs with their roles, a value for every placeholder of the command,
// or the reason one cannot be filled. Pure: the caller stages the files and runs the command.
import path from 'node:path';
import type { InputRole, SchemaObject } from '../../model/contract.ts';
import { COMPATIBLE, guessRole } from '../../model/input-roles.ts';
import { optionNamedByNeed, textAsJsonList } from './need-values.ts';
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

export interface FillRequest {
  schema: SchemaObject;
  /** The command's placeholders in order of use. */
  placeholders: string[];
  inputs: TaskInput[];
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

function taskValue(input: TaskInput, staged: Record<string, string>): string | undefined {
  if (input.role === 'input_file') return staged[input.name];
  if (input.value === undefined) return undefined;
  return typeof input.value === 'string' ? input.value : JSON.stringify(input.value);
}

/** Fills every placeholder or says which cannot be filled and why. */
export function fillPlaceholders(req: FillRequest): FillResult {
  const props = req.schema.properties ?? {};
  const result: FillResult = { values: {}, sources: {}, roles: {}, outputs: [], problems: [] };
  const used = new Set<string>();
  const roleOf = (p: string): InputRole => props[p]?.role ?? guessRole(p, props[p]);
  for (const p of req.placeholders) result.roles[p] = roleOf(p);

  const assign = (p: string, input: TaskInput) => {
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
      const value = taskValue(input, req.staged);
      if (value === undefined) return;
      const list = role === 'json' && input.role === 'text' ? textAsJsonList(value, exampleOf(props[p])) : undefined;
      result.values[p] = list ?? value;
    }
    result.sources[p] = 'task';
  };
  const candidates = (p: string) =>
    req.inputs.filter((i) => !used.has(i.name) && COMPATIBLE[result.roles[p] as InputRole].includes(i.role));

  // First the placeholders whose names say which input they want, then the rest by role in order of use.
  for (const p of req.placeholders) {
    const scored = candidates(p)
      .map((i) => ({ i, s: nameScore(p, props[p], i.name) }))
      .filter((x) => x.s >= 2);
    scored.sort((a, b) => b.s - a.s);
    if (scored[0]) assign(p, scored[0].i);
  }
  // Then the rest by role: the best-named pairs first (a shared word, also from the description: an `angle`
  // input goes to the placeholder described in degrees, not to the first number), else in order of use.
  // An undescribed placeholder is filled only when its name says which input it wants (above).
  const open = req.placeholders.filter((p) => !(p in result.values) && result.roles[p] !== 'option' && props[p]);
  const pairs = open.flatMap((p, pi) =>
    candidates(p).map((i) => ({ p, i, pi, ii: req.inputs.indexOf(i), s: nameScore(p, props[p], i.name) })),
  );
  pairs.sort((a, b) => b.s - a.s || a.pi - b.pi || a.ii - b.ii);
  for (const { p, i } of pairs) if (!(p in result.values) && !used.has(i.name)) assign(p, i);

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
      req.need && (role === 'option' || prop.enum)
        ? optionNamedByNeed(p, [...(prop.enum ?? []), ...(prop.examples ?? []), prop.default], req.need)
        : undefined;
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
    if (used.has(input.name) || ['output_file', 'output_dir', 'number', 'option'].includes(input.role)) continue;
    result.problems.push({
      name: input.name,
      kind: 'no_place',
      reason: `the command has no placeholder for the task's ${input.role} input`,
    });
  }
  return result;
}
