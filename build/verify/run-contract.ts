// Installs and runs one contract's commands in the sandbox, as an agent would: npm tools in a fresh project
// folder, PyPI tools in a fresh virtual environment, placeholders filled (input-values.ts). The install step
// reaches the registries only (through the allow-list proxy); the execute step has no network at all.
// Commands that need Homebrew, sudo or a downloaded script are never run (`unverifiable`).
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CommandProblem, fillArgv, findCodeArgument, parseCommand } from '../model/command.ts';
import type { Requires, ToolContract } from '../model/contract.ts';
import { type FilledInput, fillInputs, SAMPLES_DIR } from './input-values.ts';
import { jsLoadTargets, type LoadTarget, pyLoadTargets, writeLoadCheck } from './load-check.ts';
import { type Registries, registriesFromEnv, registryAccess, trustSettings } from './registries.ts';
import { startAllowListProxy } from './registry-proxy.ts';
import {
  DEFAULT_LIMITS,
  folderSize,
  RELAY_PORT,
  runSandboxed,
  SANDBOX_WORK,
  type SandboxLimits,
  type SandboxResult,
} from './sandbox.ts';
import { unreachedHosts } from './withheld.ts';

export type Runtime = 'node' | 'python';

/** What a contract says it needs beyond this machine (action.requires). */
export type Requirements = Requires;

export interface RunOptions {
  /** Placeholder values; they win over the contract's defaults and examples. */
  values?: Record<string, string>;
  /** Input files per placeholder: a host path or the bytes; copied into the work folder. */
  files?: Record<string, string | Uint8Array>;
  limits?: Partial<SandboxLimits>;
  registries?: Registries;
}

export interface StepResult extends SandboxResult {
  argv: string[];
}

export interface RunResult {
  /** Set when the commands were not run at all: why (a maintainer can act on it). */
  notRun?: { status: 'unverifiable' | 'failed'; reason: string };
  runtime?: Runtime;
  requires: Requirements;
  inputs: Record<string, FilledInput>;
  /** Project folder or virtual environment creation. */
  setup?: StepResult;
  install?: StepResult;
  execute?: StepResult;
  /** Offline check that the package loads and has the functions its command calls (tools that need the internet or credentials). */
  loadCheck?: StepResult;
  /** Output files per placeholder; output folders per placeholder as the relative paths of the files in them. */
  outputs: { stdout: string; files: Record<string, Buffer>; dirs?: Record<string, string[]> };
  /** Registries on the allow-list that this machine could not reach during the install. */
  unreachableRegistries?: string[];
  /**
   * Hosts off the allow-list the install tried to reach (a browser, engine or model download): refused by the
   * proxy (`host:port`) or named in its output as unresolvable (the sandbox has no DNS; `host`).
   */
  refusedHosts?: string[];
  /** Hosts off the allow-list (and off loopback) the execute step's output says it could not reach. */
  runtimeHosts?: string[];
}

const NEVER_RUN = new Set(['sudo', 'homebrew', 'pipe_to_shell', 'remote_script']);
const NOT_A_TASK = new Set(['import_only', 'placeholder_in_code', 'shell_syntax', 'empty']);
const OUTPUT_FILE_CAP = 1024 * 1024;

/** `>=22.1` against `22.23.3`: whether the version meets the minimum. */
export function meetsMinimum(version: string, minimum: string): boolean {
  const want = minimum.replace(/^>=/, '').split('.').map(Number);
  const have = version.split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    const h = have[i] ?? 0;
    const w = want[i] ?? 0;
    if (h !== w) return h > w;
  }
  return true;
}

const describe = (problems: CommandProblem[]) => problems.map((p) => p.message).join('; ');

/** Which runtime an install command uses, or why this verifier cannot run it. */
function installRuntime(argv: string[]): Runtime | { reason: string } {
  const program = path.basename(argv[0] ?? '');
  if (program === 'npm' && /^(install|i|add|ci)$/.test(argv[1] ?? '')) {
    const source = argv
      .slice(2)
      .find((a) => !a.startsWith('-') && /^(git\+|git:|github:|https?:|file:)|^[\w.-]+\/[\w.-]+$/.test(a));
    if (source)
      return {
        reason: `installs ${source} from outside the npm registry; the install step reaches package registries only`,
      };
    return 'node';
  }
  const pip =
    program === 'pip' || program === 'pip3' || (/^python3?$/.test(program) && argv[1] === '-m' && argv[2] === 'pip');
  if (pip) {
    const source = argv.find((a) => /^(git\+|https?:|file:)/.test(a) || a.includes('@ git+') || a.includes(' @ http'));
    if (source)
      return {
        reason: `installs ${source} from outside the package index; the install step reaches package registries only`,
      };
    return 'python';
  }
  return { reason: `installs with ${program || 'nothing'}; this verifier runs npm and pip installs only` };
}

/** Node's and Python's versions as the sandbox provides them, for the evidence (`node 22.23`). */
export function runtimeLabel(runtime: Runtime): string {
  const version = runtime === 'node' ? process.versions.node : pythonFullVersion();
  return `${runtime} ${version.split('.').slice(0, 2).join('.')}`;
}

/** The sandbox's Python (Debian's /usr/bin/python3), e.g. `3.11.2`. */
function pythonFullVersion(): string {
  pythonVersion ??=
    spawnSync('/usr/bin/python3', ['-c', 'import platform; print(platform.python_version())'], {
      encoding: 'utf8',
    }).stdout.trim() || '3';
  return pythonVersion;
}
let pythonVersion: string | undefined;

/**
 * The install step's limits per runtime, over the sandbox's defaults, measured on real packages (README,
 * "Verification"): npm applications with their whole dependency tree grow the work folder to 2.8 GB (Flowise:
 * npm's cache and node_modules) and took 9 to 14 minutes on this loaded machine (n8n, Flowise), npm itself
 * past the default 120 s of CPU time (n8n); PyPI's
 * machine-learning wheels hold single files of 434 MiB (libtorch_cpu.so) to 517 MiB (libcublasLt.so in
 * torch's CUDA build) and install to 1.3 GiB (torch for the CPU with transformers and sentence-transformers) to
 * 5.3 GiB (the CUDA build), plus the downloaded wheels while pip works. The execute step keeps the defaults:
 * a tool's task needs none of this.
 */
export const INSTALL_LIMITS: Record<Runtime, Partial<SandboxLimits>> = {
  node: { diskBytes: 4 * 1024 ** 3, wallMs: 20 * 60_000, cpuSeconds: 900 },
  python: { fileBytes: 1024 ** 3, diskBytes: 10 * 1024 ** 3, wallMs: 20 * 60_000, cpuSeconds: 900 },
};

const INSTALL_TMP = `${SANDBOX_WORK}/.cache/tmp`;

function stepEnv(runtime: Runtime, registries: Registries, online: boolean): Record<string, string> {
  const proxy = `http://127.0.0.1:${RELAY_PORT}`;
  // Installs unpack (and pip downloads) through the temporary folder: one in the work folder, under the disk
  // limit, rather than the 256 MiB /tmp that a large wheel or a native build would overflow.
  const proxyEnv: Record<string, string> = online
    ? { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, TMPDIR: INSTALL_TMP }
    : {};
  if (runtime === 'node') {
    return {
      ...proxyEnv,
      PATH: `${SANDBOX_WORK}/node_modules/.bin:${SANDBOX_WORK}/.global/bin:/opt/sandbox/bin:/usr/local/bin:/usr/bin:/bin`,
      npm_config_registry: registries.npm,
      npm_config_cache: `${SANDBOX_WORK}/.cache/npm`,
      npm_config_prefix: `${SANDBOX_WORK}/.global`,
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      // Install scripts' output is part of the evidence.
      ...(online
        ? { npm_config_proxy: proxy, npm_config_https_proxy: proxy, npm_config_foreground_scripts: 'true' }
        : { npm_config_offline: 'true' }),
    };
  }
  return {
    ...proxyEnv,
    PATH: `${SANDBOX_WORK}/.venv/bin:/opt/sandbox/bin:/usr/local/bin:/usr/bin:/bin`,
    VIRTUAL_ENV: `${SANDBOX_WORK}/.venv`,
    PIP_CONFIG_FILE: '/dev/null',
    PIP_INDEX_URL: registries.pipIndex,
    PIP_EXTRA_INDEX_URL: registries.pipExtraIndexes.join(' '),
    PIP_FIND_LINKS: registries.pipFindLinks.join(' '),
    PIP_CACHE_DIR: `${SANDBOX_WORK}/.cache/pip`,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_NO_INPUT: '1',
    PIP_DEFAULT_TIMEOUT: '30',
    PIP_RETRIES: '1',
    ...(online ? { PIP_PROXY: proxy } : { PIP_NO_INDEX: '1' }),
  };
}

async function placeInputs(workDir: string, inputs: Record<string, FilledInput>, files: RunOptions['files'] = {}) {
  for (const [name, input] of Object.entries(inputs)) {
    const target = path.join(workDir, input.samplePath ?? input.value);
    if (!target.startsWith(`${workDir}/`)) continue;
    const given = files[name];
    if (input.output === 'dir') await fsp.mkdir(target, { recursive: true });
    else if (input.output === 'file') await fsp.mkdir(path.dirname(target), { recursive: true });
    else if (given !== undefined || input.sample) {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      if (typeof given === 'string') await fsp.copyFile(given, target);
      else if (given) await fsp.writeFile(target, given);
      else await fsp.copyFile(path.join(SAMPLES_DIR, input.sample as string), target);
    }
  }
}

async function collectOutputs(workDir: string, inputs: Record<string, FilledInput>, stdout: string) {
  const files: Record<string, Buffer> = {};
  const dirs: Record<string, string[]> = {};
  for (const [name, input] of Object.entries(inputs)) {
    if (input.output === 'dir') {
      // Names only (readdir does not follow symlinks), so a planted link makes the host read nothing.
      const dir = path.join(workDir, input.value);
      const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
      dirs[name] = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
    }
    if (input.output !== 'file') continue;
    const file = path.join(workDir, input.value);
    const stat = await fsp.lstat(file).catch(() => null);
    // Only regular files: a symlink planted by the tool must not make the host read elsewhere.
    if (stat?.isFile()) {
      const handle = await fsp.open(file, 'r');
      try {
        const buf = Buffer.alloc(Math.min(stat.size, OUTPUT_FILE_CAP));
        await handle.read(buf, 0, buf.length, 0);
        files[name] = buf;
      } finally {
        await handle.close();
      }
    }
  }
  return { stdout, files, dirs };
}

/** Modules (and functions) the execute command loads, for the offline load check. */
function loadTargets(runtime: Runtime, executeArgv: string[], contract: ToolContract): LoadTarget[] {
  const code = findCodeArgument(executeArgv);
  if (code?.language === 'javascript') return jsLoadTargets(code.code);
  if (code?.language === 'python') return pyLoadTargets(code.code);
  // A command-line tool: the package itself must load.
  const name = contract.identity.name;
  return runtime === 'node'
    ? [{ module: name, names: [] }]
    : [{ module: name.replace(/-/g, '_').toLowerCase(), names: [] }];
}

/** What a contract's commands become once checked: the runtime, both argument vectors, the filled inputs. */
export interface RunPlan {
  runtime: Runtime;
  installArgv: string[];
  executeArgv: string[];
  inputs: Record<string, FilledInput>;
  requires: Requirements;
}

const emptyResult = (requires: Requirements): RunResult => ({
  requires,
  inputs: {},
  outputs: { stdout: '', files: {} },
});

/** Checks a contract's commands and fills its placeholders; a RunResult with `notRun` when they must not run. */
export function planRun(contract: ToolContract, options: Pick<RunOptions, 'values'> = {}): RunPlan | RunResult {
  const action = contract.action;
  const requires: Requirements = action.requires ?? {};
  const notRun = (status: 'unverifiable' | 'failed', reason: string): RunResult => ({
    ...emptyResult(requires),
    notRun: { status, reason },
  });

  if (!action.install_cmd) return notRun('unverifiable', 'the contract has no install_cmd');
  if (!action.execute_cmd) return notRun('unverifiable', 'the contract has no execute_cmd');
  const install = parseCommand(action.install_cmd);
  const execute = parseCommand(action.execute_cmd);
  for (const [label, parsed] of [
    ['install_cmd', install],
    ['execute_cmd', execute],
  ] as const) {
    const blocked = parsed.problems.filter((p) => NEVER_RUN.has(p.kind));
    if (blocked.length) return notRun('unverifiable', `${label} ${describe(blocked)}; never run here`);
  }
  const installArgv = install.argv;
  const runtime = installRuntime(installArgv);
  if (typeof runtime !== 'string') return notRun('unverifiable', runtime.reason);
  const minimum = requires.runtime?.[runtime];
  const have = runtime === 'node' ? process.versions.node : pythonFullVersion();
  if (minimum && !meetsMinimum(have, minimum)) {
    return notRun('unverifiable', `needs ${runtime} ${minimum}; this verifier has ${runtime} ${have}`);
  }
  const installBad = install.problems.filter((p) => NOT_A_TASK.has(p.kind) && p.kind !== 'placeholder_in_code');
  if (installBad.length) return notRun('failed', `install_cmd ${describe(installBad)}`);
  const executeBad = execute.problems.filter((p) => NOT_A_TASK.has(p.kind));
  if (executeBad.length) return notRun('failed', `execute_cmd ${describe(executeBad)}`);

  const inputs = fillInputs(contract, execute.placeholders, options.values);
  const values = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.value]));
  return { runtime, installArgv, executeArgv: fillArgv(execute.argv, values), inputs, requires };
}

export interface StepExtra {
  /** Serve the sample files on the sandbox's own loopback. */
  fixture?: boolean;
  /** More environment variables for this step. */
  env?: Record<string, string>;
  /** Host paths mounted read-only at another place in the sandbox. */
  readOnlyBinds?: { from: string; to: string }[];
  /** Limits for this step, over the run's. */
  limits?: Partial<SandboxLimits>;
}

/** A fresh project folder or venv with the contract's package installed; `step` runs one more command offline. */
export interface Installed {
  workDir: string;
  result: RunResult;
  /** `host:port` of the registries the install could reach (never a withheld host). */
  registryHosts: readonly string[];
  step(argv: string[], extra?: StepExtra): Promise<StepResult>;
}

const stepText = (step: SandboxResult) => `${step.stderr}\n${step.stdout}`;

/** Refused `host:port` pairs, then hosts named in the output that are not among them already. */
function mergeHosts(refused: string[], named: string[]): string[] {
  const out = [...new Set(refused)];
  const seen = new Set(out.map((h) => h.replace(/:\d+$/, '')));
  for (const host of named) if (!seen.has(host)) out.push(host);
  return out;
}

/**
 * Sets up the runtime, runs the install through the allow-list proxy, closes the proxy, then hands the
 * installed work folder to `body` (which runs its steps offline). Removes the work folder afterwards.
 */
export async function withInstalled(
  plan: RunPlan,
  options: Pick<RunOptions, 'files' | 'limits' | 'registries'>,
  body: (installed: Installed) => Promise<void>,
): Promise<RunResult> {
  const { runtime, inputs } = plan;
  const registries = options.registries ?? registriesFromEnv();
  const access = registryAccess(registries);
  const trust = trustSettings();
  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'verify-work-'));
  const proxy = await startAllowListProxy(access.hosts);
  const result: RunResult = { ...emptyResult(plan.requires), runtime, inputs };
  try {
    await placeInputs(workDir, inputs, options.files);
    // The install step (the only one online) gets the runtime's install limits; a caller's limits win.
    const step = async (argv: string[], online: boolean, extra: StepExtra = {}): Promise<StepResult> => ({
      argv,
      ...(await runSandboxed({
        argv,
        workDir,
        env: { ...trust.env, ...stepEnv(runtime, registries, online), ...extra.env },
        limits: { ...(online ? INSTALL_LIMITS[runtime] : {}), ...options.limits, ...extra.limits },
        ...(online ? { proxySocket: proxy.socketPath, readOnlyPaths: [...access.paths, ...trust.paths] } : {}),
        ...(extra.fixture ? { fixtureDir: SAMPLES_DIR } : {}),
        ...(extra.readOnlyBinds ? { readOnlyBinds: extra.readOnlyBinds } : {}),
      })),
    });
    result.setup =
      runtime === 'node'
        ? await step(['npm', 'init', '-y'], false)
        : await step(['/usr/bin/python3', '-m', 'venv', `${SANDBOX_WORK}/.venv`], false);
    if (result.setup.code !== 0) return result;
    await fsp.mkdir(path.join(workDir, INSTALL_TMP.slice(SANDBOX_WORK.length + 1)), { recursive: true });
    result.install = await step(plan.installArgv, true);
    if (proxy.unreachable.length) result.unreachableRegistries = [...new Set(proxy.unreachable)];
    const refused = mergeHosts(proxy.refused, unreachedHosts(stepText(result.install), access.hosts));
    if (refused.length) result.refusedHosts = refused;
    if (result.install.code !== 0) return result;
    // The proxy is closed before anything the package installed runs again.
    await proxy.close();
    // The disk limit of later steps counts from what the install left (a venv with torch is over 1 GiB).
    const installed = await folderSize(workDir, Number.POSITIVE_INFINITY);
    const allowance = options.limits?.diskBytes ?? DEFAULT_LIMITS.diskBytes;
    const offline = (argv: string[], extra: StepExtra = {}) =>
      step(argv, false, { ...extra, limits: { diskBytes: installed + allowance, ...extra.limits } });
    await body({ workDir, result, registryHosts: access.hosts, step: offline });
    return result;
  } finally {
    await proxy.close().catch(() => {});
    await fsp.rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}

export async function runContract(contract: ToolContract, options: RunOptions = {}): Promise<RunResult> {
  const plan = planRun(contract, options);
  if (!('installArgv' in plan)) return plan;
  const { runtime, inputs, requires, executeArgv } = plan;
  return withInstalled(plan, options, async ({ workDir, result, step, registryHosts }) => {
    result.execute = await step(executeArgv, { fixture: true });
    result.outputs = await collectOutputs(workDir, inputs, result.execute.stdout);
    const reached = unreachedHosts(stepText(result.execute), registryHosts);
    if (reached.length) result.runtimeHosts = reached;
    // A tool that needs the internet (other than the URL it was given, served by the fixture) or credentials
    // cannot show its task offline, even when it exits 0: it is checked to load instead (level `loads`).
    const fetchesFixture = Object.values(inputs).some((i) => i.fixture);
    const needsOutside = (requires.network === true && !fetchesFixture) || (requires.env?.length ?? 0) > 0;
    if (needsOutside) {
      const argv = await writeLoadCheck(workDir, runtime, loadTargets(runtime, executeArgv, contract));
      result.loadCheck = await step(argv);
    }
  });
}
