// The agent task sets: needs in words, their inputs with roles, and a check of the result
// (test/fixtures/agent-tasks/{dev,heldout,heldout-2,...,heldout-5}.json; input files under files/).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { INPUT_ROLES, type InputRole } from '../../model/contract.ts';
import { type Check, checkErrors } from './checks.ts';

export interface TaskInput {
  name: string;
  role: InputRole;
  /** The value of a text, url, json, number or option input. */
  value?: unknown;
  /** An input file, relative to the task set's files folder. */
  file?: string;
  /** The extension an output file should have (".png"). */
  ext?: string;
}

export interface AgentTask {
  id: string;
  need: string;
  category: string;
  platform: 'npm' | 'pypi';
  inputs: TaskInput[];
  check: Check;
  /** Validation-style needs: a non-zero exit is an answer, not a failure. */
  accept_nonzero_exit: boolean;
  /** Where the need was asked in public (heldout-5): for reviewers only, never sent by the agent. */
  source?: string;
}

/** The task sets, by file name under test/fixtures/agent-tasks/. */
export const TASK_SETS = ['dev', 'heldout', 'heldout-2', 'heldout-3', 'heldout-4', 'heldout-5'] as const;
export type TaskSetName = (typeof TASK_SETS)[number];
/**
 * What a run without --set measures: the dev set and the first held-out set, as before the second held-out set
 * existed, so default figures stay comparable; heldout-2 to heldout-5 are asked for by name.
 */
export const DEFAULT_TASK_SETS: readonly TaskSetName[] = ['dev', 'heldout'];

const FIELDS = new Set(['id', 'need', 'category', 'platform', 'inputs', 'check', 'accept_nonzero_exit', 'source']);

/** Reads and checks a task file; throws one error listing every problem. */
export function loadTaskSet(file: string): AgentTask[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const filesDir = path.join(path.dirname(file), 'files');
  if (!Array.isArray(raw)) throw new Error(`${file}: must be a JSON array of tasks`);
  const errors: string[] = [];
  const ids = new Set<string>();
  const tasks = raw.map((t: Record<string, unknown>, i): AgentTask => {
    const at = `${file}[${i}]`;
    for (const k of Object.keys(t)) if (!FIELDS.has(k)) errors.push(`${at}: unknown field ${k}`);
    for (const k of ['id', 'need', 'category'])
      if (typeof t[k] !== 'string' || !t[k]) errors.push(`${at}.${k}: required text`);
    if (t.source !== undefined && !(typeof t.source === 'string' && /^https?:\/\/\S+$/.test(t.source)))
      errors.push(`${at}.source: the address of the public ask`);
    if (ids.has(String(t.id))) errors.push(`${at}: duplicate id ${t.id}`);
    ids.add(String(t.id));
    const platform = t.platform ?? 'npm';
    if (platform !== 'npm' && platform !== 'pypi') errors.push(`${at}.platform: npm or pypi`);
    const inputs = Array.isArray(t.inputs) ? (t.inputs as TaskInput[]) : [];
    if (!Array.isArray(t.inputs)) errors.push(`${at}.inputs: must be a list`);
    const names = new Set<string>();
    inputs.forEach((input, j) => {
      const where = `${at}.inputs[${j}]`;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(String(input.name))) errors.push(`${where}.name: a placeholder-like name`);
      if (names.has(input.name)) errors.push(`${where}: duplicate input ${input.name}`);
      names.add(input.name);
      if (!(INPUT_ROLES as readonly string[]).includes(input.role))
        errors.push(`${where}.role: one of ${INPUT_ROLES.join(', ')}`);
      if (input.role === 'input_file') {
        if (typeof input.file !== 'string' || !existsSync(path.join(filesDir, input.file))) {
          errors.push(`${where}.file: no such file under ${filesDir}`);
        }
      } else if (input.role !== 'output_file' && input.role !== 'output_dir' && input.value === undefined) {
        errors.push(`${where}.value: required for a ${input.role} input`);
      }
    });
    errors.push(...checkErrors(t.check, `${at}.check`));
    return {
      id: String(t.id),
      need: String(t.need),
      category: String(t.category),
      platform: platform as AgentTask['platform'],
      inputs,
      check: t.check as Check,
      accept_nonzero_exit: t.accept_nonzero_exit === true,
      ...(typeof t.source === 'string' ? { source: t.source } : {}),
    };
  });
  if (errors.length) throw new Error(`invalid task set:\n${errors.join('\n')}`);
  return tasks;
}

/** Where a set's input files live. */
export const taskFilesDir = (taskFile: string) => path.join(path.dirname(taskFile), 'files');
