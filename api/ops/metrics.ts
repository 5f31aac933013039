// Prometheus metrics (prom-client) on a registry of this server's own, so several servers in one process
// (tests) never share counters. Counts that live in the runtime state (telemetry, review queue) are read
// when scraped, so /metrics shows what the stores hold, also under Redis.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReviewQueue } from '../state/review-queue/types.ts';
import { RANK_BUCKETS, type SearchOutcomeStore } from '../state/search-outcomes/types.ts';
import type { TelemetryStore } from '../state/telemetry/types.ts';

export interface Metrics {
  registry: Registry;
  /** One answered request: its route pattern (`/api/v1/tools/:aid`, `static` for dist/ files), method, status. */
  request(route: string, method: string, status: number, seconds: number): void;
  search(kind: 'tools' | 'apis', seconds: number): void;
  rebuild(outcome: 'ok' | 'failed', seconds: number): void;
}

export interface MetricSources {
  telemetry: TelemetryStore;
  reviewQueue: ReviewQueue;
  searchOutcomes: SearchOutcomeStore;
}

export function createMetrics(sources: () => MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tcc_' });
  const requests = new Counter({
    name: 'tcc_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'tcc_http_request_duration_seconds',
    help: 'Time from request to the last byte of the answer',
    labelNames: ['route', 'method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'tcc_rate_limit_refusals_total',
    help: 'Requests refused with 429 (rate limits and the admin lockout)',
    labelNames: ['route'],
    registers: [registry],
  });
  const searches = new Histogram({
    name: 'tcc_search_duration_seconds',
    help: 'In-process ranking time of one search',
    labelNames: ['kind'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1],
    registers: [registry],
  });
  const rebuilds = new Histogram({
    name: 'tcc_rebuild_duration_seconds',
    help: 'Duration of the static-site rebuilds this process ran',
    labelNames: ['outcome'],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  new Gauge({
    name: 'tcc_telemetry_reports',
    help: 'Telemetry counters over all tools (from the telemetry store)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const totals = (await sources().telemetry.totals()) as unknown as Record<string, unknown>;
      for (const [kind, value] of Object.entries(totals)) {
        if (typeof value === 'number') this.set({ kind }, value);
        else if (kind === 'votes' && value) {
          for (const [vote, n] of Object.entries(value))
            if (typeof n === 'number') this.set({ kind: `votes_${vote}` }, n);
        }
      }
    },
  });
  // Gauges, not counters: a later report on the same answer replaces its verdict, so counts can go down.
  new Gauge({
    name: 'tcc_search_outcomes',
    help: 'Searches answered to known clients and what their reports say (first answers in the field)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const t = await sources().searchOutcomes.totals();
      for (const kind of [
        'searches',
        'searches_judged',
        'first_answer_met',
        'met_within_three',
        'unlinked_reports',
      ] as const)
        this.set({ kind }, t[kind]);
    },
  });
  new Gauge({
    name: 'tcc_search_answers',
    help: 'Search answers fetched or reported as used, by rank and verdict (the latest judged report per answer)',
    labelNames: ['rank', 'verdict'],
    registers: [registry],
    async collect() {
      const t = await sources().searchOutcomes.totals();
      for (const rank of RANK_BUCKETS) {
        this.set({ rank, verdict: 'fetched' }, t.fetched[rank]);
        this.set({ rank, verdict: 'success' }, t.judged[rank].success);
        this.set({ rank, verdict: 'failure' }, t.judged[rank].failure);
      }
    },
  });
  new Gauge({
    name: 'tcc_review_queue_pending',
    help: 'Suggestions waiting in the review queue',
    registers: [registry],
    async collect() {
      this.set((await sources().reviewQueue.list()).length);
    },
  });
  return {
    registry,
    request(route, method, status, seconds) {
      requests.inc({ route, method, status });
      latency.observe({ route, method }, seconds);
      if (status === 429) refusals.inc({ route });
    },
    search: (kind, seconds) => searches.observe({ kind }, seconds),
    rebuild: (outcome, seconds) => rebuilds.observe({ outcome }, seconds),
  };
}
