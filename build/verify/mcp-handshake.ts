// Verifies an MCP-server contract by a real handshake: the package is installed in the sandbox exactly as
// runContract installs a tool (allow-list proxy, then no network), then the official SDK client
// (mcp-client.mjs, with the project's own node_modules mounted read-only) starts the server with the
// contract's execute command over stdio inside the sandbox, initializes, and lists every tool.
// Remote servers (a URL) cannot be reached from here: they are `unverifiable`.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ReadTool } from '../mcp/tool-list.ts';
import type { ToolContract } from '../model/contract.ts';
import {
  planRun,
  type RunOptions,
  type RunResult,
  runtimeLabel,
  type StepResult,
  withInstalled,
} from './run-contract.ts';
import { type EnvPlaceholder, envPlaceholder, requiredEnvVars } from './env-placeholders.ts';
import { SAMPLES_DIR } from './input-values.ts';
import { DEFAULT_LIMITS, SANDBOX_WORK } from './sandbox.ts';
import type { Verification } from './verdict.ts';
import { installVerdict, stepFailure } from './verdict.ts';

const CLIENT_DIR = '/opt/mcp-client';
const CLIENT_SCRIPT = path.join(import.meta.dirname, 'mcp-client.mjs');

export interface McpListing {
  server_info: { name: string; version?: string } | null;
  protocol_version: string | null;
  tools: ReadTool[];
  /** The page limit stopped the listing before the server's last page. */
  more_pages: boolean;
}

export interface McpHandshakeOptions extends Pick<RunOptions, 'values' | 'limits' | 'registries'> {
  /** How long the server may take to answer initialize (it may first have to start npx or Python). */
  handshakeMs?: number;
  /** How long each tools/list page may take. */
  listMs?: number;
}

export interface McpHandshakeResult {
  run: RunResult;
  /** The client step (it starts the server); absent when nothing was installed or the contract was not run. */
  client?: StepResult;
  listing?: McpListing;
  /** What the client reported when the server did not start, answer or list. */
  failure?: {
    stage: string;
    error: string;
    exited: string | null;
    /** The last stdout text that was not an MCP message, as the SDK reported it. */
    protocol_error: string | null;
    stderr_tail: string;
  };
  /** Environment variables the server requires, given placeholder values of their shape so it can start offline. */
  placeholderEnv: EnvPlaceholder[];
  handshakeMs: number;
}

export const DEFAULT_HANDSHAKE_MS = 90_000;
export const DEFAULT_LIST_MS = 30_000;
/** Where the client writes the tool list, relative to the work folder (a long list would pass the output cap). */
const TOOLS_FILE = '.mcp-tools.json';
/** The most of a tool list the host reads back (500 tools of 10,000-character descriptions and their schemas). */
const TOOLS_FILE_CAP = 64 * 1024 * 1024;

/** The project's node_modules holding the official SDK, mounted read-only beside the client script. */
function sdkModules(): string {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/client/index.js');
  const marker = `${path.sep}node_modules${path.sep}`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
}

/** The environment variables the server needs to start (required ones of logic.mcp plus requires.env), shaped. */
export function requiredEnv(contract: ToolContract): EnvPlaceholder[] {
  return requiredEnvVars(contract.logic.mcp?.env_vars, contract.action.requires?.env).map(envPlaceholder);
}

/** Makes the folders and files that path variables name (a sample's bytes where one fits, else empty). */
async function createEnvPaths(workDir: string, env: EnvPlaceholder[]): Promise<void> {
  for (const { create } of env) {
    if (!create) continue;
    const target = path.join(workDir, create.relative);
    if (create.kind === 'dir') await fsp.mkdir(target, { recursive: true });
    else {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      if (create.sample) await fsp.copyFile(path.join(SAMPLES_DIR, create.sample), target);
      else await fsp.writeFile(target, '');
    }
  }
}

/**
 * The tool list the client wrote, read back only when it is a regular file (not a link the server planted) of
 * the size and sha256 the client reported on its own stdout.
 */
async function readToolsFile(workDir: string, reported: unknown): Promise<{ tools?: ReadTool[]; error?: string }> {
  const r = reported as { bytes?: unknown; sha256?: unknown };
  const file = path.join(workDir, TOOLS_FILE);
  const stat = await fsp.lstat(file).catch(() => null);
  if (!stat?.isFile()) return { error: 'the tool list file is missing or not a regular file' };
  if (stat.size > TOOLS_FILE_CAP) return { error: `the tool list is ${stat.size} bytes, over ${TOOLS_FILE_CAP}` };
  const text = await fsp.readFile(file);
  if (text.length !== r.bytes || createHash('sha256').update(text).digest('hex') !== r.sha256) {
    return { error: 'the tool list file differs from what the client wrote (size or sha256)' };
  }
  try {
    return { tools: JSON.parse(text.toString('utf8')) as ReadTool[] };
  } catch {
    return { error: 'the tool list file is not JSON' };
  }
}

/** Why this contract's server cannot be started here, or null when it can be. */
function notStartable(contract: ToolContract): string | null {
  const mcp = contract.logic.mcp;
  if (!mcp) return 'the contract has no logic.mcp block (transport, tools)';
  if (mcp.transport !== 'stdio') {
    return `a remote server (${mcp.transport}${mcp.url ? ` at ${mcp.url}` : ''}): this machine has no internet access, so no handshake was tried`;
  }
  return null;
}

export async function handshakeMcpServer(
  contract: ToolContract,
  options: McpHandshakeOptions = {},
): Promise<McpHandshakeResult> {
  const handshakeMs = options.handshakeMs ?? DEFAULT_HANDSHAKE_MS;
  const listMs = options.listMs ?? DEFAULT_LIST_MS;
  const placeholderEnv = requiredEnv(contract);
  const blocked = notStartable(contract);
  const base = { placeholderEnv, handshakeMs };
  if (blocked) {
    return {
      ...base,
      run: {
        requires: {},
        inputs: {},
        outputs: { stdout: '', files: {} },
        notRun: { status: 'unverifiable', reason: blocked },
      },
    };
  }
  const plan = planRun(contract, options);
  if (!('installArgv' in plan)) return { ...base, run: plan };
  const out: McpHandshakeResult = {
    ...base,
    run: { requires: plan.requires, inputs: plan.inputs, outputs: { stdout: '', files: {} } },
  };
  // The client's own timeouts come first; the sandbox's wall clock is the backstop (never shorter than usual).
  const wallMs = Math.max(options.limits?.wallMs ?? DEFAULT_LIMITS.wallMs, handshakeMs + listMs * 3 + 60_000);
  out.run = await withInstalled(plan, options, async ({ workDir, result, step }) => {
    await createEnvPaths(workDir, placeholderEnv);
    const argv = [
      'node',
      `${CLIENT_DIR}/mcp-client.mjs`,
      '--handshake-ms',
      String(handshakeMs),
      '--list-ms',
      String(listMs),
      '--tools-file',
      `${SANDBOX_WORK}/${TOOLS_FILE}`,
      '--',
      ...plan.executeArgv,
    ];
    out.client = await step(argv, {
      env: Object.fromEntries(placeholderEnv.map((v) => [v.name, v.value])),
      // URL variables point at the sandbox's own fixture page, so a server that probes its address finds one.
      fixture: true,
      limits: { wallMs },
      readOnlyBinds: [
        { from: CLIENT_SCRIPT, to: `${CLIENT_DIR}/mcp-client.mjs` },
        { from: sdkModules(), to: `${CLIENT_DIR}/node_modules` },
      ],
    });
    result.execute = out.client;
    const report = parseReport(out.client.stdout);
    const read = report?.ok === true ? await readToolsFile(workDir, report.tools_file) : {};
    if (report?.ok === true && read.tools) {
      out.listing = {
        server_info: (report.server_info as McpListing['server_info']) ?? null,
        protocol_version: (report.protocol_version as string | null) ?? null,
        tools: read.tools,
        more_pages: report.more_pages === true,
      };
    } else if (report?.ok === true) {
      out.failure = {
        stage: 'tools/list',
        error: read.error ?? 'no tool list',
        exited: null,
        protocol_error: null,
        stderr_tail: String(report.stderr_tail ?? ''),
      };
    } else if (report) {
      out.failure = {
        stage: String(report.stage ?? 'start'),
        error: String(report.error ?? ''),
        exited: (report.exited as string | null) ?? null,
        protocol_error: (report.protocol_error as string | null) ?? null,
        stderr_tail: String(report.stderr_tail ?? ''),
      };
    }
  });
  return out;
}

/** The client's one JSON line (the last line that parses; a server writing to our stdout cannot: it has its own pipe). */
function parseReport(stdout: string): Record<string, unknown> | null {
  const lines = stdout.trim().split('\n').reverse();
  for (const line of lines) {
    try {
      const value = JSON.parse(line);
      if (value && typeof value === 'object' && 'ok' in value) return value as Record<string, unknown>;
    } catch {
      /* not the report */
    }
  }
  return null;
}

/** The last lines the server printed on stderr, for a reason an operator can act on. */
function stderrTail(text: string): string {
  const lines = text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(-3).join(' | ').slice(-400);
}

/** `API_URL (a URL)`: the variable, and the shape of the value it was given when not opaque text. */
function describeEnv(v: EnvPlaceholder): string {
  const shape: Partial<Record<EnvPlaceholder['shape'], string>> = {
    default: 'its registry default',
    choice: 'its first choice',
    placeholder: 'its registry placeholder',
    boolean: 'false',
    number: 'a number',
    port: 'a port number',
    path: v.create?.kind === 'dir' ? 'a folder' : 'a file',
    url: 'a URL',
    host: 'a host',
  };
  return shape[v.shape] ? `${v.name} (${shape[v.shape]})` : v.name;
}

const clip = (text: string) => (text.length > 1000 ? `${text.slice(0, 997)}...` : text);

/** passed (runs): the server answered the handshake and listed its tools; failed with what went wrong. */
export function judgeHandshake(result: McpHandshakeResult, now = new Date()): Verification {
  const { run } = result;
  const evidence = {
    checked_at: now.toISOString(),
    runtime: run.runtime ? runtimeLabel(run.runtime) : null,
    install_ms: run.install?.ms ?? null,
    execute_ms: result.client?.ms ?? null,
  };
  const placeholders = result.placeholderEnv.length
    ? `; placeholder values were set for ${result.placeholderEnv.map(describeEnv).join(', ')} (required environment variables; no real credentials), so tools that need them were listed, not called`
    : '';
  if (run.notRun) return { status: run.notRun.status, reason: run.notRun.reason, ...evidence };
  const failed = (reason: string): Verification => ({
    status: 'failed',
    reason: clip(reason + placeholders),
    ...evidence,
  });
  if (run.setup && (run.setup.code !== 0 || run.setup.limit))
    return failed(stepFailure('setting up the project', run.setup));
  if (!run.install) return failed('install did not run');
  if (run.install.code !== 0 || run.install.limit) {
    const verdict = installVerdict(run, run.install, evidence);
    return verdict.status === 'failed' ? failed(verdict.reason) : { ...verdict, reason: clip(verdict.reason) };
  }
  if (result.listing) {
    const { server_info: info, tools, protocol_version: protocol } = result.listing;
    const who = info ? `${info.name}${info.version ? ` ${info.version}` : ''}` : 'the server';
    const more = result.listing.more_pages ? ' (stopped at the page limit)' : '';
    return {
      status: 'passed',
      level: 'runs',
      reason: clip(
        `started over stdio offline and answered the MCP handshake as ${who}${protocol ? ` (protocol ${protocol})` : ''}; tools/list gave ${tools.length} tool${tools.length === 1 ? '' : 's'}${more}${placeholders}`,
      ),
      ...evidence,
    };
  }
  const f = result.failure;
  const said = f ? stderrTail(f.stderr_tail) : '';
  const noise = f?.protocol_error ? `; its stdout carried text that is not MCP (${f.protocol_error})` : '';
  const tail = `${noise}${said ? `; server stderr: ${said}` : ''}`;
  if (f && /\bENOENT\b/.test(f.error)) {
    const program = result.client?.argv[result.client.argv.indexOf('--') + 1] ?? 'the server command';
    return failed(`the server command ${program} was not found after the install (check execute_cmd)${tail}`);
  }
  if (f?.stage === 'handshake') {
    if (/^no handshake within/.test(f.error)) {
      return failed(
        `the server started but did not answer the MCP handshake (initialize) within ${result.handshakeMs / 1000} s${tail}`,
      );
    }
    if (f.exited || /closed/i.test(f.error)) return failed(`the server exited before the MCP handshake${tail}`);
    return failed(`the MCP handshake failed: ${f.error}${tail}`);
  }
  if (f?.stage === 'tools/list')
    return failed(`the server answered the handshake but tools/list failed: ${f.error}${tail}`);
  if (f) return failed(`the server did not start: ${f.error}${tail}`);
  const client = result.client;
  if (!client) return failed('the server was not started');
  return failed(stepFailure('the MCP client (which starts the server)', client));
}
