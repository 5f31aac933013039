// The scripted agent (no language model): for one need it searches the catalog, takes each of the first three
// answers through the tax gate, fills the command from the contract's own input_schema, installs and runs it
// (through a Runner: the verification sandbox, execute without network), checks the result, and reports
// each outcome back through the telemetry protocol.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommand } from '../../model/command.ts';
import { fileTextToPass, HELD_INPUT_ROLES, type HeldInputRole } from '../../model/input-roles.ts';
import { normalizePypiName } from '../../model/pypi-name.ts';
import { type RunResult, runCheck } from './checks.ts';
import { type FillResult, fillPlaceholders, type HeldInput } from './fill.ts';
import type { CatalogClient, FullContract, ListingHit } from './service-client.ts';
import type { AgentTask } from './tasks.ts';

export const FAILURE_KINDS = [
  'not found',
  'wrong tool ranked first',
  'cannot fill',
  'install failed',
  'execute failed',
  'wrong result',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];
/**
 * What one answer did. `does not fit`: the command has no place for the task's inputs, so the answer is a tool
 * for another job (a ranking or coverage failure, not the contract's); `filled`: as far as a run without a
 * sandbox goes; `not run`: a PyPI package outside the local index.
 */
export type AttemptKind =
  | 'success'
  | 'does not fit'
  | 'cannot fill'
  | 'install failed'
  | 'execute failed'
  | 'wrong result'
  | 'not run'
  | 'filled';

/** What the agent asks the sandbox to do with one filled contract. */
export interface RunRequest {
  contract: FullContract;
  platform: 'npm' | 'pypi';
  /** Placeholder values; file paths are relative to the work folder. */
  values: Record<string, string>;
  /** The bytes of each input-file placeholder, staged at its value's path before the run. */
  files: Record<string, Uint8Array>;
}

export interface RunReport {
  install: { ok: boolean; detail: string };
  execute: { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean; ms: number } | null;
  /** Why the commands were not run at all, and at which step. */
  notRun?: { step: 'install' | 'execute'; reason: string };
  /** Output files by placeholder (absent when not written); output folders as their relative file lists. */
  files: Record<string, Uint8Array>;
  dirs: Record<string, string[]>;
}

export type Runner = (req: RunRequest) => Promise<RunReport>;

export interface Attempt {
  rank: number;
  aid: string;
  kind: AttemptKind;
  reason: string;
}

export interface TaskOutcome {
  id: string;
  need: string;
  category: string;
  platform: 'npm' | 'pypi';
  /** False when no answer could be run here (a PyPI package outside the local index). */
  ran: boolean;
  /** 1-based rank of the first answer that met the need (without a runner: that could be filled), or null. */
  successRank: number | null;
  /** Why the first answer did not meet the need (null when it did). */
  firstFailure: FailureKind | null;
  /**
   * Why none of the first three did (null when one did): not found when none of them fits the task,
   * else what the first answer that fits did.
   */
  failure: FailureKind | null;
  attempts: Attempt[];
  /** Whether MCP search_tools ranked the same first answers as REST (when asked). */
  mcpSameTop?: boolean;
}

export interface AgentOptions {
  client: CatalogClient;
  filesDir: string;
  /** Absent: stop after filling (search and fill stages only). */
  runner?: Runner;
  /** Whether a PyPI package can be installed here (the local index); absent: every one can. */
  pypiAvailable?: (name: string) => boolean;
  compareMcp?: boolean;
  answers?: number;
  /** Tell search what the task holds (GET /api/v1/tools?inputs=…); default true. */
  sayInputs?: boolean;
  /**
   * Tell search the agent has no network and no credentials (GET /api/v1/tools?offline=true): the sandbox runs
   * commands without network, so a tool that needs it cannot meet the need here. Default true.
   */
  sayOffline?: boolean;
}

/**
 * The task's inputs as the agent holds them: an input file it can read as text (input-roles.ts fileTextToPass)
 * is a `text_file` carrying that text, which it may pass to a command taking a text or JSON; other inputs as given.
 * The text loses its trailing line ends, as a shell's `$(cat file)` does: a token or a word in a file is one line.
 */
export function heldInputs(task: AgentTask, filesDir: string): HeldInput[] {
  return task.inputs.map((input) => {
    if (input.role !== 'input_file' || !input.file) return input;
    const text = fileTextToPass(readFileSync(path.join(filesDir, input.file)));
    return text === null ? input : { ...input, role: 'text_file', value: text.replace(/[\r\n]+$/, '') };
  });
}

/** The roles of the inputs an agent tells search it holds: what the command must take (numbers may stay defaults). */
export function heldRoles(inputs: readonly HeldInput[]): HeldInputRole[] {
  return inputs
    .map((i) => i.role)
    .filter((r): r is HeldInputRole => (HELD_INPUT_ROLES as readonly string[]).includes(r))
    .slice(0, MAX_HELD);
}
const MAX_HELD = 8;

// "data.xml" → xml, "a.tar.gz" → tar.gz.
const EXTENSION = /\.((?:tar\.)?[A-Za-z0-9]{1,16})$/;

/** The extensions of the files an agent holds (any agent knows them): search ranks readers of other formats lower. */
export function heldFormats(task: AgentTask): string[] {
  return task.inputs
    .flatMap((i) => {
      const ext = i.role === 'input_file' && i.file ? EXTENSION.exec(i.file)?.[1] : undefined;
      return ext ? [ext.toLowerCase()] : [];
    })
    .slice(0, MAX_HELD);
}

// Outputs at the top of the work folder, so no folder has to exist before the command runs.
const OUT_DIR = '.';
const IN_DIR = 'in';

/** The trend keyword a report carries: the need, cut to the protocol's 100 characters. */
export const trendKeyword = (need: string) => need.replace(/\s+/g, ' ').trim().slice(0, 100);

// What each attempt reports (HTTP-style status of the use; the vote answers "did it solve the task").
const REPORT: Record<Exclude<AttemptKind, 'not run' | 'filled'>, { execution_feedback: number; vote: 'yes' | 'no' }> = {
  success: { execution_feedback: 200, vote: 'yes' },
  'does not fit': { execution_feedback: 400, vote: 'no' },
  'wrong result': { execution_feedback: 200, vote: 'no' },
  'execute failed': { execution_feedback: 500, vote: 'no' },
  'install failed': { execution_feedback: 500, vote: 'no' },
  'cannot fill': { execution_feedback: 400, vote: 'no' },
};

/** The result the check reads: the output the contract names as its target, else stdout, else the only file. */
export function pickResult(contract: FullContract, fill: FillResult, run: RunReport): Uint8Array {
  const target = contract.logic.output_schema.target;
  const stdout = new TextEncoder().encode(run.execute?.stdout ?? '');
  const fileOf = (placeholder: string) => run.files[placeholder] ?? null;
  if (target && target !== 'stdout') return fileOf(target) ?? stdout;
  if (target === 'stdout' && stdout.length) return stdout;
  const written = fill.outputs.map((o) => fileOf(o.placeholder)).filter((f): f is Uint8Array => f !== null);
  if (stdout.length || written.length !== 1) return stdout;
  return written[0] as Uint8Array;
}

/** The task's input files: their bytes and sizes by input name, and the path each will have in the work folder. */
function stageFiles(task: AgentTask, filesDir: string) {
  const files: Record<string, Uint8Array> = {};
  const staged: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const input of task.inputs) {
    if (input.role !== 'input_file' || !input.file) continue;
    const rel = path.posix.join(IN_DIR, path.basename(input.file));
    const bytes = readFileSync(path.join(filesDir, input.file));
    files[input.name] = bytes;
    staged[input.name] = rel;
    sizes[input.name] = bytes.length;
  }
  return { files, staged, sizes };
}

const pypiName = (c: FullContract) => normalizePypiName(c.identity.name);

/** One answer tried end to end; never throws for the tool's own failures. */
async function tryAnswer(
  task: AgentTask,
  held: HeldInput[],
  hit: ListingHit,
  rank: number,
  opts: AgentOptions,
): Promise<Attempt> {
  const at = (kind: AttemptKind, reason: string): Attempt => ({ rank, aid: hit.aid, kind, reason });
  // The lookup is not a use of the tool: 102 (processing) counts as neither success nor failure.
  const contract = await opts.client.fullContract(hit.aid, {
    execution_feedback: 102,
    trend_keyword: trendKeyword(task.need),
  });
  const execute = contract.action.execute_cmd;
  if (!execute) return at('execute failed', 'the contract has no execute command');
  if (task.platform === 'pypi' && opts.pypiAvailable && !opts.pypiAvailable(pypiName(contract))) {
    return at('not run', `${pypiName(contract)} is not in the local package index`);
  }
  const parsed = parseCommand(execute);
  const { files: stagedBytes, staged, sizes } = stageFiles(task, opts.filesDir);
  const fill = fillPlaceholders({
    schema: contract.logic.input_schema,
    placeholders: parsed.placeholders,
    inputs: held,
    staged,
    outDir: OUT_DIR,
    need: task.need,
  });
  if (fill.problems.length) {
    const why = fill.problems.map((p) => `{${p.name}}: ${p.reason}`).join('; ');
    // An undescribed placeholder might have been the place for the input: then the contract is to blame.
    const misfit =
      fill.problems.some((p) => p.kind === 'no_place') && !fill.problems.some((p) => p.kind === 'undescribed');
    return at(misfit ? 'does not fit' : 'cannot fill', why);
  }
  if (!contract.action.execute_argv) return at('execute failed', 'the execute command needs a shell');
  if (!opts.runner) return at('filled', JSON.stringify(fill.values));
  const files: Record<string, Uint8Array> = {};
  for (const [p, value] of Object.entries(fill.values)) {
    const input = Object.entries(staged).find(([, rel]) => rel === value);
    if (input && fill.sources[p] === 'task') files[p] = stagedBytes[input[0]] as Uint8Array;
  }
  const run = await opts.runner({ contract, platform: task.platform, values: fill.values, files });
  if (run.notRun) return at(run.notRun.step === 'install' ? 'install failed' : 'execute failed', run.notRun.reason);
  if (!run.install.ok) return at('install failed', run.install.detail.slice(-300));
  const ex = run.execute;
  if (!ex) return at('execute failed', 'not started');
  if (ex.timedOut) return at('execute failed', `did not finish in ${Math.round(ex.ms / 1000)} s`);
  if (ex.exitCode !== 0 && !task.accept_nonzero_exit) {
    return at('execute failed', `exit ${ex.exitCode}: ${(ex.stderr || ex.stdout).trim().slice(-300)}`);
  }
  const dirOut = fill.outputs.find((o) => o.role === 'output_dir');
  const result: RunResult = {
    result: pickResult(contract, fill, run),
    stdout: ex.stdout,
    stderr: ex.stderr,
    exitCode: ex.exitCode,
    dirFiles: dirOut ? (run.dirs[dirOut.placeholder] ?? []) : [],
    inputSizes: sizes,
  };
  const check = runCheck(task.check, result);
  return check.ok ? at('success', '') : at('wrong result', check.reason);
}

/** The failure kinds of a task from its attempts (in rank order, runnable ones only). */
export function classify(tried: Attempt[], successRank: number | null): Pick<TaskOutcome, 'firstFailure' | 'failure'> {
  const fitting = tried.filter((a) => a.kind !== 'does not fit');
  const failure: FailureKind | null = successRank ? null : fitting[0] ? (fitting[0].kind as FailureKind) : 'not found';
  const first = tried[0];
  if (successRank === 1) return { firstFailure: null, failure };
  if (!first) return { firstFailure: 'not found', failure };
  if (successRank || first.kind === 'does not fit') {
    return { firstFailure: fitting.length ? 'wrong tool ranked first' : 'not found', failure };
  }
  return { firstFailure: first.kind as FailureKind, failure };
}

/** Runs one task through search, the tax gate, filling, the sandbox and the check. */
export async function runTask(task: AgentTask, opts: AgentOptions): Promise<TaskOutcome> {
  const category = task.platform === 'pypi' ? 'pypi' : 'npm';
  const held = heldInputs(task, opts.filesDir);
  const say = opts.sayInputs !== false;
  const filters = {
    inputs: say ? heldRoles(held) : [],
    formats: say ? heldFormats(task) : [],
    offline: opts.sayOffline !== false,
  };
  const hits = await opts.client.search(task.need, category, filters);
  const outcome: TaskOutcome = {
    id: task.id,
    need: task.need,
    category: task.category,
    platform: task.platform,
    ran: true,
    successRank: null,
    firstFailure: null,
    failure: null,
    attempts: [],
  };
  if (opts.compareMcp) {
    const viaMcp = await opts.client.mcpSearch(task.need, category, filters);
    outcome.mcpSameTop =
      viaMcp
        .slice(0, 3)
        .map((h) => h.aid)
        .join() ===
      hits
        .slice(0, 3)
        .map((h) => h.aid)
        .join();
  }
  for (const [i, hit] of hits.slice(0, opts.answers ?? 3).entries()) {
    let attempt: Attempt;
    try {
      attempt = await tryAnswer(task, held, hit, i + 1, opts);
    } catch (error) {
      attempt = {
        rank: i + 1,
        aid: hit.aid,
        kind: 'execute failed',
        reason: `agent error: ${(error as Error).message}`,
      };
    }
    outcome.attempts.push(attempt);
    if (attempt.kind in REPORT) {
      const r = REPORT[attempt.kind as keyof typeof REPORT];
      // A lost report costs the catalog one data point, not the benchmark its run.
      await opts.client
        .report(hit.aid, {
          execution_feedback: r.execution_feedback,
          trend_keyword: trendKeyword(task.need),
          validation_vote: r.vote,
        })
        .catch((error: Error) => {
          attempt.reason += ` (report not sent: ${error.message})`;
        });
    }
    // Without a runner, a filled command is as far as the agent gets: the stages after it are not measured.
    if (attempt.kind === 'success' || attempt.kind === 'filled') {
      outcome.successRank = i + 1;
      break;
    }
  }
  const tried = outcome.attempts.filter((a) => a.kind !== 'not run');
  if (hits.length > 0 && tried.length === 0) {
    outcome.ran = false;
    return outcome;
  }
  Object.assign(outcome, classify(tried, outcome.successRank));
  return outcome;
}

/** Whether a PyPI project is in one of the simple indexes on this machine (PEP 503 folder names). */
export function localPypiIndex(roots: string[]): (name: string) => boolean {
  return (name) => roots.some((root) => existsSync(path.join(root, name)));
}
