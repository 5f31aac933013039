// Exact in-memory counting of telemetry events. Single-threaded and synchronous, so concurrent requests
// can never lose an update; persistence is the event log's job, this only folds events into counts.
import type { AgentClass } from '../../services/agent-class.ts';
import {
  type LoggedEvent,
  outcomeOf,
  emptyTotals,
  type TelemetryTotals,
  type ToolCounters,
  type ToolEvidence,
  type TrustCounters,
  type VoteCounts,
} from './types.ts';

/**
 * Distinct trend keywords remembered per tool and in all; later new keywords are counted only as
 * "other". Keywords are caller text: without both bounds a flood of unique ones would exhaust memory.
 */
export const MAX_KEYWORDS_PER_TOOL = 200;
export const MAX_KEYWORDS_TOTAL = 200_000;
export const TOP_KEYWORDS = 10;
/**
 * Distinct clients tallied per tool and in all for trust evidence. Past either bound a new client's
 * reports go to one shared "overflow" client: a tool with 1,000 distinct reporters has its evidence.
 */
export const MAX_CLIENTS_PER_TOOL = 1_000;
export const MAX_CLIENTS_TOTAL = 500_000;
const OVERFLOW_CLIENT = '*';

interface ToolState {
  requests: number;
  successes: number;
  failures: number;
  votes: VoteCounts;
  lookups: number;
  lookupsByAgent: Partial<Record<AgentClass, number>>;
  // A Map, not an object: keywords are caller text and may be "__proto__" or "constructor".
  keywords: Map<string, number>;
  otherKeywords: number;
  lastReportAt: string | null;
  // Per client hash: [successes, failures]. Reports without a hash share the key ''.
  clients: Map<string, [number, number]>;
}

type StoredTool = Omit<ToolState, 'keywords' | 'clients'> & {
  keywords: [string, number][];
  clients?: [string, [number, number]][];
};

export interface AggregatorState {
  events: number;
  tools: Record<string, StoredTool>;
}

const emptyTool = (): ToolState => ({
  requests: 0,
  successes: 0,
  failures: 0,
  votes: { yes: 0, no: 0, partial: 0 },
  lookups: 0,
  lookupsByAgent: {},
  keywords: new Map(),
  otherKeywords: 0,
  lastReportAt: null,
  clients: new Map(),
});

const noCounts = (): TrustCounters => ({
  requests: 0,
  successes: 0,
  failures: 0,
  votes: { yes: 0, no: 0, partial: 0 },
});

export class Aggregator {
  private tools = new Map<string, ToolState>();
  private events = 0;
  private keywordEntries = 0;
  private clientEntries = 0;

  private tool(aid: string): ToolState {
    let t = this.tools.get(aid);
    if (!t) {
      t = emptyTool();
      this.tools.set(aid, t);
    }
    return t;
  }

  private lookups(aid: string, agent: AgentClass, n: number): void {
    const t = this.tool(aid);
    this.events += n;
    t.lookups += n;
    t.lookupsByAgent[agent] = (t.lookupsByAgent[agent] ?? 0) + n;
  }

  apply(e: LoggedEvent): void {
    if (e.kind === 'lookups') {
      for (const [aid, agent, n] of e.counts) this.lookups(aid, agent, n);
      return;
    }
    if (e.kind === 'lookup') {
      this.lookups(e.aid, e.agent, 1);
      return;
    }
    const t = this.tool(e.aid);
    this.events++;
    t.requests++;
    const outcome = outcomeOf(e.execution_feedback);
    if (outcome) {
      t[outcome]++;
      this.tally(t, e.client ?? '', outcome === 'successes');
    }
    if (e.validation_vote) t.votes[e.validation_vote]++;
    t.lastReportAt = e.at;
    // Keywords are compared case-insensitively: "Send Email" and "send email" are one use case.
    const kw = e.trend_keyword.toLowerCase();
    const seen = t.keywords.get(kw);
    if (seen !== undefined) t.keywords.set(kw, seen + 1);
    else if (t.keywords.size < MAX_KEYWORDS_PER_TOOL && this.keywordEntries < MAX_KEYWORDS_TOTAL) {
      t.keywords.set(kw, 1);
      this.keywordEntries++;
    } else t.otherKeywords++;
  }

  private tally(t: ToolState, client: string, success: boolean): void {
    let entry = t.clients.get(client);
    if (!entry) {
      const room = t.clients.size < MAX_CLIENTS_PER_TOOL && this.clientEntries < MAX_CLIENTS_TOTAL;
      const key = room ? client : OVERFLOW_CLIENT;
      entry = t.clients.get(key);
      if (!entry) {
        entry = [0, 0];
        t.clients.set(key, entry);
        this.clientEntries++;
      }
    }
    entry[success ? 0 : 1]++;
  }

  /** Evidence counted per distinct client: each client weighs 1, split by its own success fraction. */
  evidence(): ToolEvidence[] {
    const out: ToolEvidence[] = [];
    for (const [aid, t] of this.tools) {
      if (t.clients.size === 0) continue;
      let success_weight = 0;
      for (const [s, f] of t.clients.values()) success_weight += s / (s + f);
      out.push({ aid, clients: t.clients.size, success_weight, successes: t.successes, failures: t.failures });
    }
    return out;
  }

  /** The served part only: no keyword ranking. */
  trustCounters(aid: string): TrustCounters {
    const t = this.tools.get(aid);
    return t
      ? { requests: t.requests, successes: t.successes, failures: t.failures, votes: { ...t.votes } }
      : noCounts();
  }

  counters(aid: string): ToolCounters {
    const t = this.tools.get(aid) ?? emptyTool();
    const top = [...t.keywords]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP_KEYWORDS)
      .map(([keyword, count]) => ({ keyword, count }));
    return {
      requests: t.requests,
      successes: t.successes,
      failures: t.failures,
      votes: { ...t.votes },
      lookups: t.lookups,
      lookups_by_agent: { ...t.lookupsByAgent },
      trend_keywords: top,
      last_report_at: t.lastReportAt,
    };
  }

  totals(): TelemetryTotals {
    const out: TelemetryTotals = { ...emptyTotals(), events: this.events };
    for (const t of this.tools.values()) {
      out.lookups += t.lookups;
      out.requests += t.requests;
      out.successes += t.successes;
      out.failures += t.failures;
      out.votes.yes += t.votes.yes;
      out.votes.no += t.votes.no;
      out.votes.partial += t.votes.partial;
      if (t.requests > 0) out.tools_reported++;
      for (const [k, n] of Object.entries(t.lookupsByAgent) as [AgentClass, number][]) {
        out.lookups_by_agent[k] = (out.lookups_by_agent[k] ?? 0) + n;
      }
    }
    return out;
  }

  /** Plain data for a checkpoint; `restore` is its inverse. */
  snapshot(): AggregatorState {
    const tools: Record<string, StoredTool> = {};
    for (const [aid, t] of this.tools) tools[aid] = { ...t, keywords: [...t.keywords], clients: [...t.clients] };
    return { events: this.events, tools };
  }

  restore(state: AggregatorState): void {
    this.events = state.events;
    this.tools = new Map(
      Object.entries(state.tools).map(([aid, t]) => [
        aid,
        { ...emptyTool(), ...t, keywords: new Map(t.keywords), clients: new Map(t.clients ?? []) },
      ]),
    );
    this.keywordEntries = 0;
    this.clientEntries = 0;
    for (const t of this.tools.values()) {
      this.keywordEntries += t.keywords.size;
      this.clientEntries += t.clients.size;
    }
  }
}
