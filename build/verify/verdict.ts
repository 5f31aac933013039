// Turns one run into the evidence stored as record.verification. Passed: both commands exit 0 within the
// limits and the execute step prints something or writes its output file (level `runs`). A tool whose
// contract says it needs the internet or credentials passes at level `loads` when, offline, it installed,
// loaded, and has the functions its command calls.
import { type RunResult, runtimeLabel, type StepResult } from './run-contract.ts';
import { missingDownload, missingProgram } from './withheld.ts';

export type VerificationStatus = 'passed' | 'failed' | 'unverifiable';
export type VerificationLevel = 'runs' | 'loads';

export interface Verification {
  status: VerificationStatus;
  level?: VerificationLevel;
  reason: string;
  checked_at: string;
  runtime: string | null;
  install_ms: number | null;
  execute_ms: number | null;
}

const LIMIT_WORDS: Record<string, string> = {
  cpu: 'the CPU-time limit',
  memory: 'the memory limit',
  processes: 'the process limit',
  'file-size': 'the file-size limit',
  output: 'the output-size limit',
  wall: 'the wall-clock limit',
  disk: 'the disk limit',
};

/** The last meaningful line a failed step printed, for a reason a maintainer can act on. */
export function lastLine(text: string): string {
  const lines = text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^at |^\^+$|^Node\.js v|^npm (warn|notice)/.test(l));
  const error =
    lines.find((l) => /^(npm )?error\b|^\w*Error:/i.test(l)) ??
    lines.find((l) => /error|cannot|not found|no such|missing|has no|denied|refused|ENOTFOUND|EAI_AGAIN/i.test(l));
  return (error ?? lines[lines.length - 1] ?? '').slice(0, 300);
}

export function stepFailure(label: string, step: StepResult): string {
  if (step.limit) return `${label} stopped at ${LIMIT_WORDS[step.limit] ?? step.limit}`;
  const how = step.signal ? `was killed by ${step.signal}` : `exited with code ${step.code}`;
  const detail = lastLine(step.stderr) || lastLine(step.stdout);
  return `${label} ${how}${detail ? `: ${detail}` : ''}`;
}

const ok = (step: StepResult | undefined): boolean => step !== undefined && step.code === 0 && !step.limit;

/**
 * An execute failure after an install that completed while reaching for hosts other than the package registries
 * (a browser, engine or model download its install script makes, refused here and tolerated by the script): the
 * tool may well work where those hosts are reachable, so it is unverifiable here, with the hosts named; null
 * when the install reached for nothing else.
 */
function withheld(run: RunResult, step: StepResult, label: string): string | null {
  const hosts = run.refusedHosts ?? [];
  if (hosts.length === 0) return null;
  return `its install reached for ${hosts.join(', ')} (outside the package registries; refused here), so the tool may need a download this sandbox withholds; ${stepFailure(label, step)}`;
}

const hostName = (hostPort: string) => hostPort.replace(/:\d+$/, '').toLowerCase();

type Evidence = Pick<Verification, 'checked_at' | 'runtime' | 'install_ms' | 'execute_ms'>;

/**
 * The verdict on an install that did not complete (tools and MCP servers alike). Unverifiable when the package
 * is missing from the registries reachable here while another is unreachable, or when the install failed after
 * a download from a host outside the registries (a host it reached for that its own output names: an install
 * script fetching a prebuilt binary or headers from elsewhere); otherwise failed, with any hosts it reached for
 * named (a package that reaches out silently, and an install that stops at a limit, fail whatever they reached
 * for: a hostile package reaches out too).
 */
export function installVerdict(run: RunResult, install: StepResult, evidence: Evidence): Verification {
  const text = install.stderr + install.stdout;
  const notFound = /from versions: none|No matching distribution|E404|404 Not Found/i.test(text);
  if (notFound && run.unreachableRegistries?.length) {
    return {
      status: 'unverifiable',
      reason: `the package is not in the registries reachable here (${run.unreachableRegistries.join(', ')} unreachable from this machine): ${lastLine(install.stderr)}`,
      ...evidence,
    };
  }
  const failure = stepFailure('install', install);
  const hosts = run.refusedHosts ?? [];
  const said = text.toLowerCase();
  const named = install.limit ? [] : hosts.filter((h) => said.includes(hostName(h)));
  if (named.length) {
    return {
      status: 'unverifiable',
      reason: `its install downloads from ${named.map(hostName).join(', ')}, outside the package registries (withheld here), and failed without it; it may install where ${named.length > 1 ? 'those hosts are' : 'that host is'} reachable: ${failure}`,
      ...evidence,
    };
  }
  const reached = hosts.length ? ` (it reached for ${hosts.join(', ')}: refused here)` : '';
  return { status: 'failed', reason: `${failure}${reached}`, ...evidence };
}

/**
 * Why an execute failure is this machine's limit rather than the tool's, or null: a program the tool starts
 * that this machine lacks, a file it downloads into the user's cache on first use, or a host it reached for at
 * run time when the contract says it needs the internet. A run-time host the contract does not declare is the
 * contract's failure (`undeclared`).
 */
function executeWithheld(run: RunResult, execute: StepResult): { reason: string; undeclared?: true } | null {
  if (execute.limit) return null;
  const text = `${execute.stderr}\n${execute.stdout}`;
  const failure = stepFailure('execute', execute);
  const program = missingProgram(text, execute.argv[0]);
  if (program) {
    return {
      reason: `needs the program ${program}, which this machine does not have (it comes from neither npm nor PyPI: install it with the system's package manager); ${failure}`,
    };
  }
  const download = missingDownload(text);
  if (download) {
    return {
      reason: `expects ${download}, which the tool fills by a download from outside the package registries (on first use or by its own setup command), withheld here; ${failure}`,
    };
  }
  const hosts = run.runtimeHosts ?? [];
  if (hosts.length === 0) return null;
  if (run.requires.network) {
    return {
      reason: `needs the internet at run time beyond its input: it reached for ${hosts.join(', ')} (the execute step has no network here); ${failure}`,
    };
  }
  return {
    reason: `${failure}; it reached for ${hosts.join(', ')} at run time, but the contract does not declare action.requires.network`,
    undeclared: true,
  };
}

export function judge(run: RunResult, now = new Date()): Verification {
  const evidence = {
    checked_at: now.toISOString(),
    runtime: run.runtime ? runtimeLabel(run.runtime) : null,
    install_ms: run.install?.ms ?? null,
    execute_ms: run.execute?.ms ?? null,
  };
  if (run.notRun) return { status: run.notRun.status, reason: run.notRun.reason, ...evidence };
  const failed = (reason: string): Verification => ({ status: 'failed', reason, ...evidence });
  if (run.setup && !ok(run.setup)) return failed(stepFailure('setting up the project', run.setup));
  if (!run.install) return failed('install did not run');
  if (!ok(run.install)) return installVerdict(run, run.install, evidence);
  const execute = run.execute as StepResult;
  const printed = execute.stdout.trim().length > 0 || Object.values(run.outputs.files).some((f) => f.length > 0);
  if (run.loadCheck) {
    const needs = [run.requires.network ? 'the internet' : '', ...(run.requires.env ?? [])].filter(Boolean).join(', ');
    if (!ok(run.loadCheck)) {
      return failed(
        `needs ${needs}; offline check failed: ${lastLine(run.loadCheck.stdout) || lastLine(run.loadCheck.stderr)}`,
      );
    }
    const offline = ok(execute)
      ? 'its command exited 0 offline'
      : `offline its command ${stepFailure('', execute).trim()}`;
    return {
      status: 'passed',
      level: 'loads',
      reason: `needs ${needs}; ${offline}; installed, loaded, and the functions it calls exist (${lastLine(run.loadCheck.stdout)})`,
      ...evidence,
    };
  }
  if (ok(execute)) {
    if (printed) return { status: 'passed', level: 'runs', reason: 'installed and did its task offline', ...evidence };
    return failed('execute exited 0 but printed nothing and wrote no output file');
  }
  const outside = withheld(run, execute, 'execute');
  if (outside) return { status: 'unverifiable', reason: outside, ...evidence };
  const limit = executeWithheld(run, execute);
  if (limit?.undeclared) return failed(limit.reason);
  if (limit) return { status: 'unverifiable', reason: limit.reason, ...evidence };
  return failed(stepFailure('execute', execute));
}
