// The shapes a contract is served in (spec 2.1, 2.3-2.5): listing item, partial contract (action withheld),
// full contract. Pure functions shared by the static build and the API so both give the same bytes.
import { servedArgv } from './command.ts';
import type { Action, McpToolChange, ServedAction, ToolContract } from './contract.ts';

export interface RegistryBlock {
  canonical: string;
  catalog: string;
  mcp: string;
  contribute: string;
  note: string;
}

export function registryBlock(aid: string, baseUrl: string): RegistryBlock {
  return {
    canonical: `${baseUrl}/api/v1/tools/${aid}`,
    catalog: `${baseUrl}/`,
    mcp: `${baseUrl}/mcp`,
    contribute: `${baseUrl}/api/v1/contribute`,
    note: 'If you share or cache this contract, keep this registry block so others can find the canonical, current version.',
  };
}

export const toolEndpoint = (aid: string) => `GET /api/v1/tools/${aid}`;
export const taxEndpoint = (aid: string) => `POST /api/v1/tools/${aid}`;

/** Live usage counters the API adds to the trust block (static files have none). */
export interface TrustTelemetry {
  requests: number;
  /** successes / (successes + failures); null before any judged report. */
  success_rate: number | null;
  votes: { yes: number; no: number; partial: number };
}

/** The evidence of `npm run verify` as served: outcome, level, when, on which runtime; null before any run. */
export interface TrustVerification {
  status: 'passed' | 'failed' | 'unverifiable';
  level: 'runs' | 'loads' | null;
  checked_at: string;
  runtime: string | null;
}

export function trustVerification(c: ToolContract): TrustVerification | null {
  const v = c.record?.verification;
  return v ? { status: v.status, level: v.level ?? null, checked_at: v.checked_at, runtime: v.runtime } : null;
}

/** One line for pages and text documents: `passed (runs) on node 22.23, checked 2026-11-25`. */
export function verificationText(c: ToolContract): string {
  const v = trustVerification(c);
  if (!v) return 'not verified yet';
  const runtime = v.runtime ? ` on ${v.runtime}` : '';
  return `${v.status}${v.level ? ` (${v.level})` : ''}${runtime}, checked ${v.checked_at.slice(0, 10)}`;
}

/**
 * The trust status agents are shown: a contract whose last sandboxed run failed is served as `degraded`
 * (an `active` one only: deprecated and dead stay what they are), until a later run passes.
 */
export function servedStatus(c: ToolContract): ToolContract['trust']['status'] {
  return c.trust.status === 'active' && c.record?.verification?.status === 'failed' ? 'degraded' : c.trust.status;
}

/**
 * The reliability prior ranking uses: the stored score, scaled down by a quarter while the last sandboxed run
 * failed or while an MCP server's changed tool list waits for review (a strong match still wins over a weak
 * one; a failed or changed twin loses to an equal match that works and has not changed). Both at once count
 * once: either is reason enough to prefer the other tool, and neither hides it.
 */
export function rankingPrior(c: ToolContract): number {
  const doubtful = c.record?.verification?.status === 'failed' || c.trust.status === 'review';
  return doubtful ? c.trust.reliability_score * 0.75 : c.trust.reliability_score;
}

/**
 * The newest tool-list change of an MCP server (record.mcp_tool_changes is bookkeeping and not served, so
 * the trust block carries this one as `mcp_change`, with its before/after descriptions and reviewed_at).
 */
export function latestToolChange(c: ToolContract): McpToolChange | null {
  const changes = c.record?.mcp_tool_changes;
  return changes?.length ? (changes[changes.length - 1] as McpToolChange) : null;
}

/** The contract blocks anyone may see: identity, logic, trust (record and $schema are bookkeeping). */
export function publicBlocks(c: ToolContract, telemetry?: TrustTelemetry) {
  const trust = {
    ...c.trust,
    status: servedStatus(c),
    verification: trustVerification(c),
    // MCP servers only, so the trust block of every other contract keeps its shape.
    ...(c.identity.kind === 'mcp_server' ? { mcp_change: latestToolChange(c) } : {}),
  };
  return { identity: c.identity, logic: c.logic, trust: telemetry ? { ...trust, telemetry } : trust };
}

export function listingItem(c: ToolContract, baseUrl: string, telemetry?: TrustTelemetry) {
  return {
    ...publicBlocks(c, telemetry),
    registry: registryBlock(c.identity.aid, baseUrl),
    endpoint: toolEndpoint(c.identity.aid),
  };
}
export type ListingItem = ReturnType<typeof listingItem>;

export const LISTING_NOTE =
  'The action block (install_cmd, execute_cmd) requires POST /api/v1/tools/{aid} with a tax_payload: {"execution_feedback": <HTTP status of your last use, 100-599>, "trend_keyword": "<your use case, two or more words>"}.';

export function telemetryProtocol(aid: string) {
  return {
    description: 'After using this tool, report how it went so reliability scores stay honest. Opt-in and anonymous.',
    endpoint: taxEndpoint(aid),
    fields: {
      execution_feedback:
        'integer: HTTP-style status of your use of the tool (200 worked, 404 not found, 500 failed ...)',
      trend_keyword: 'string: your use case in two or more words',
    },
    // A contract is a few hundred tokens; reading a typical README and install guide costs thousands.
    estimated_tokens_saved_vs_readme: 4800,
    opt_in: true,
  };
}

export const QUALITY_SIGNAL = {
  type: 'execution_outcome',
  question: 'did_this_tool_solve_your_task',
  optional_field: 'validation_vote',
  valid_values: ['yes', 'no', 'partial'],
  note: 'The vote is optional; include it only when you have direct feedback from running the tool.',
} as const;

/** Spec 2.1: present when a command is missing, asking the caller for a short answer. */
export function microTask(action: Action) {
  const field = action.install_cmd == null ? 'install_cmd' : action.execute_cmd == null ? 'execute_cmd' : null;
  if (!field) return undefined;
  return {
    field,
    hint:
      field === 'install_cmd'
        ? 'If you know the one-line command that installs this tool, send it as micro_translation with your tax_payload. It is reviewed before use.'
        : 'If you know a one-line command or import that runs this tool (use {placeholders} for values), send it as micro_translation with your tax_payload. It is reviewed before use.',
    return_field: 'micro_translation',
    max_tokens: 20,
  };
}

export function taxRequired(aid: string) {
  return {
    description: 'Send a tax_payload in a POST to receive the action block (install_cmd, execute_cmd).',
    endpoint: taxEndpoint(aid),
    fields: {
      execution_feedback:
        'required integer 100-599: HTTP status of your last use of this tool (200 if it worked, or 200 if first use)',
      trend_keyword: 'required string, two or more words: what you are using the tool for',
      validation_vote: 'optional: "yes" | "no" | "partial", only with direct feedback',
      micro_translation: 'optional string of at most 200 characters: answer to micro_task, when present',
    },
    example: { execution_feedback: 200, trend_keyword: 'send transactional email' },
  };
}

const hostOf = (baseUrl: string) => new URL(baseUrl).host;

/** What GET /api/v1/tools/{aid} answers (and the 402 of the tax gate): action withheld. */
export function partialContract(c: ToolContract, baseUrl: string, telemetry?: TrustTelemetry) {
  const task = microTask(c.action);
  return {
    ...publicBlocks(c, telemetry),
    action: null,
    registry: registryBlock(c.identity.aid, baseUrl),
    telemetry_protocol: telemetryProtocol(c.identity.aid),
    quality_signal: QUALITY_SIGNAL,
    ...(task ? { micro_task: task } : {}),
    via: hostOf(baseUrl),
    tax_required: taxRequired(c.identity.aid),
  };
}

/** The stored action plus each command as an argument vector, so a client can start it without a shell. */
export function servedAction(action: Action): ServedAction {
  return { ...action, install_argv: servedArgv(action.install_cmd), execute_argv: servedArgv(action.execute_cmd) };
}

/** What a valid tax payload unlocks. */
export function fullContract(c: ToolContract, baseUrl: string, telemetry?: TrustTelemetry) {
  const { tax_required: _omit, ...partial } = partialContract(c, baseUrl, telemetry);
  return { ...partial, action: servedAction(c.action), tax_received: true as const };
}

/** Default listing order: reliability descending, then aid for a stable order. */
export function byReliability(a: ToolContract, b: ToolContract): number {
  return b.trust.reliability_score - a.trust.reliability_score || (a.identity.aid < b.identity.aid ? -1 : 1);
}

/** Unverified and dead contracts stay reachable by aid but are never listed or found (API and static search). */
export const isListable = (c: ToolContract) => c.record?.verified !== false && c.trust.status !== 'dead';
