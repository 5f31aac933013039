// First answers in the field: what agents report after a search, by the rank of the tool they report on.
// The agent benchmark measures the share of needs our first answer meets on sets we wrote; this measures it
// on live traffic, from agents that follow the telemetry protocol. A search's answers are remembered per
// client (the salted client hash, never an address) for a while; a report on one of them is credited to its
// rank. Nothing here stores the query text.

/** How long a search's answers wait for reports, and how many recent searches a client keeps. */
export const SEARCH_WINDOW_MS = 30 * 60_000;
// 20: an agent working on several needs at once keeps searching while one slow need installs and runs; with 5,
// the benchmark's own runs (two needs at a time) lost a PyPI need's search before its report arrived.
export const SEARCHES_PER_CLIENT = 20;
/** Answers remembered per search: listings hold at most 10. */
export const ANSWERS_PER_SEARCH = 10;

export const RANK_BUCKETS = ['1', '2', '3', '4-10'] as const;
export type RankBucket = (typeof RANK_BUCKETS)[number];

/** What one report says about the answer it names: a use that worked or failed, or a fetch (1xx, 3xx). */
export type ReportVerdict = 'success' | 'failure' | 'fetch';

export interface SearchOutcomeTotals {
  /** Searches with words answered to a known client (REST and MCP). */
  searches: number;
  /** Searches with at least one answer reported as used (a success or a failure). */
  searches_judged: number;
  /** Searches whose first answer's latest judged report is a success. */
  first_answer_met: number;
  /** Searches with a success on one of their first three answers. */
  met_within_three: number;
  /** Answers fetched (a 1xx report: the protocol's lookup before use), by rank, once per search and answer. */
  fetched: Record<RankBucket, number>;
  /** The latest judged report per search and answer, by rank. */
  judged: Record<RankBucket, { success: number; failure: number }>;
  /** Reports on a tool that none of the client's recent searches answered. */
  unlinked_reports: number;
}

export const emptySearchOutcomeTotals = (): SearchOutcomeTotals => ({
  searches: 0,
  searches_judged: 0,
  first_answer_met: 0,
  met_within_three: 0,
  fetched: { '1': 0, '2': 0, '3': 0, '4-10': 0 },
  judged: {
    '1': { success: 0, failure: 0 },
    '2': { success: 0, failure: 0 },
    '3': { success: 0, failure: 0 },
    '4-10': { success: 0, failure: 0 },
  },
  unlinked_reports: 0,
});

/** One interface per kind of state: in-process (memory.ts) for one server, Redis (redis.ts) for several. */
export interface SearchOutcomeStore {
  /** A search for `query` answered `aids` (best first) to `client`; the query is kept only as word hashes. */
  recordSearch(client: string, query: string, aids: readonly string[]): Promise<void>;
  /** `client` reported on `aid` with a trend keyword; credited to one of its searches (records.ts, creditReport). */
  recordReport(client: string, aid: string, verdict: ReportVerdict, keyword: string): Promise<void>;
  totals(): Promise<SearchOutcomeTotals>;
}
