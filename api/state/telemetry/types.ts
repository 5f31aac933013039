// The telemetry contract: what is recorded, what is read back, and the one interface every backend
// (the file event log today, Redis later) implements. Nothing here identifies a person: no IPs, no raw
// user agents, only a coarse agent class.
import type { TrustTelemetry } from '../../../build/model/views.ts';
import type { AgentClass } from '../../services/agent-class.ts';

export const VOTES = ['yes', 'no', 'partial'] as const;
export type Vote = (typeof VOTES)[number];

interface EventBase {
  aid: string;
  agent: AgentClass;
  /** ISO timestamp set by the server. */
  at: string;
}

/** A contract was looked up (GET by aid, or POST without a tax payload). */
export interface LookupEvent extends EventBase {
  kind: 'lookup';
}

/** A valid tax payload: the caller's report of how the tool went. */
export interface ReportEvent extends EventBase {
  kind: 'report';
  execution_feedback: number;
  /** Normalised: control characters stripped, whitespace collapsed, at most 100 characters. */
  trend_keyword: string;
  validation_vote?: Vote;
  /** Salted hash of the client address (api/telemetry/client-hash.ts), never the address: trust
   * scoring counts evidence per distinct client, so one client's flood weighs as one client. */
  client?: string;
}

export type TelemetryEvent = LookupEvent | ReportEvent;

/** How a backend may persist lookups: many folded into one record of [aid, agent class, count]. */
export interface LookupBatch {
  kind: 'lookups';
  at: string;
  counts: [string, AgentClass, number][];
}

export type LoggedEvent = TelemetryEvent | LookupBatch;

export interface VoteCounts {
  yes: number;
  no: number;
  partial: number;
}

export interface ToolCounters {
  /** Valid reports received. */
  requests: number;
  /** Reports with execution_feedback 200-299. */
  successes: number;
  /** Reports with execution_feedback 400-599 (1xx and 3xx count as neither). */
  failures: number;
  votes: VoteCounts;
  lookups: number;
  lookups_by_agent: Partial<Record<AgentClass, number>>;
  /** Most reported use cases, most frequent first. */
  trend_keywords: { keyword: string; count: number }[];
  last_report_at: string | null;
}

/** The part of a tool's counters its served trust block shows. */
export type TrustCounters = Pick<ToolCounters, 'requests' | 'successes' | 'failures' | 'votes'>;

export interface TelemetryTotals {
  events: number;
  lookups: number;
  requests: number;
  successes: number;
  failures: number;
  votes: VoteCounts;
  tools_reported: number;
  lookups_by_agent: Partial<Record<AgentClass, number>>;
}

/** Totals before any event (and what a backend shows when it has none to read). */
export const emptyTotals = (): TelemetryTotals => ({
  events: 0,
  lookups: 0,
  requests: 0,
  successes: 0,
  failures: 0,
  votes: { yes: 0, no: 0, partial: 0 },
  tools_reported: 0,
  lookups_by_agent: {},
});

/** Per-tool evidence for `npm run trust`, counted per distinct client rather than per report. */
export interface ToolEvidence {
  aid: string;
  /** Distinct clients with at least one judged (2xx or 4xx/5xx) report; reports without a client hash count as one client. */
  clients: number;
  /** Sum over those clients of each one's success fraction, so every client weighs exactly 1. */
  success_weight: number;
  successes: number;
  failures: number;
}

/**
 * One backend for all counting. For a report, `record` resolves only once the event is durable and
 * counted, so a 200 sent after it never reports something a restart would forget. A lookup is counted
 * when `record` resolves; a backend may persist lookups lazily (see file-store.ts).
 */
export interface TelemetryStore {
  record(event: TelemetryEvent): Promise<void>;
  counters(aid: string): Promise<ToolCounters>;
  /**
   * The counters a served contract shows, for each aid in order, in one round trip: every listing item
   * carries them, so they must not cost what counters() does (keyword ranking, per-agent lookups).
   */
  trustCounters(aids: readonly string[]): Promise<TrustCounters[]>;
  totals(): Promise<TelemetryTotals>;
  /** Trust-scoring evidence of every tool with judged reports; optional until every backend has it. */
  evidence?(): Promise<ToolEvidence[]>;
  close(): Promise<void>;
}

/** How a report counts, for every backend: 2xx a success, 400 and up a failure, anything else (1xx, 3xx) neither. */
export function outcomeOf(executionFeedback: number): 'successes' | 'failures' | null {
  if (executionFeedback >= 200 && executionFeedback <= 299) return 'successes';
  return executionFeedback >= 400 ? 'failures' : null;
}

/** The `telemetry` block shown inside a served contract's trust block. */
export function trustTelemetry(c: TrustCounters): TrustTelemetry {
  const judged = c.successes + c.failures;
  return {
    requests: c.requests,
    success_rate: judged === 0 ? null : Math.round((c.successes / judged) * 1000) / 1000,
    votes: { ...c.votes },
  };
}
