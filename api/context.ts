// What every route reads: configuration, the catalog store and the in-memory snapshot of the catalog,
// plus the runtime services (telemetry, review queue, rate limits, search). Writes replace the snapshot,
// so readers always see one consistent catalog.
import type { CatalogStore } from '../build/catalog/catalog-store.ts';
import type { Config } from '../build/config.ts';
import type { Snapshot } from '../build/catalog/snapshot.ts';
import type { AuthFailures } from './state/admin-auth/types.ts';
import type { ClientOptions } from './http/client.ts';
import type { RateLimiter } from './state/rate-limit/types.ts';
import type { RebuildScheduler } from './rebuild/scheduler.ts';
import type { ReviewQueue } from './state/review-queue/types.ts';
import type { ApiCatalog } from './services/apis.ts';
import type { ClientHasher } from './state/telemetry/client-hash.ts';
import type { TelemetryStore } from './state/telemetry/types.ts';
import type { SearchOutcomeStore } from './state/search-outcomes/types.ts';
import type { ToolSearch } from './services/tool-search.ts';
import type { Logger } from './ops/logger.ts';
import type { Metrics } from './ops/metrics.ts';
import type { VerifyQueue } from '../build/verify/queue/types.ts';

export interface AppContext {
  config: Config;
  store: CatalogStore;
  snapshot: Snapshot;
  startedAt: Date;
  /** Ranking over the snapshot's tools; update it together with the snapshot. */
  toolSearch: ToolSearch;
  /** Compiled web-API manifests (catalog/apis). */
  apis: ApiCatalog;
  telemetry: TelemetryStore;
  /** Reports credited to the rank of the search answer they name: first answers in the field. */
  searchOutcomes: SearchOutcomeStore;
  reviewQueue: ReviewQueue;
  /** Per client and tool, on POST /api/v1/tools/{aid}. */
  telemetryLimiter: RateLimiter;
  client: ClientOptions;
  /** Salted hash of a client address for telemetry reports (never the address itself). */
  clientHash: ClientHasher;
  /** Keeps dist/ following admin writes (api/catalog-writes.ts requests, api/rebuild.ts schedules). */
  rebuild: RebuildScheduler;
  /** Wrong admin secrets per client, for the lockout. */
  adminFailures: AuthFailures;
  /** Per client, on POST /api/v1/contribute. */
  contributeLimiter: RateLimiter;
  /** Structured log lines for what an operator cares about (ingests, rebuilds, accepts, refusals, shutdown). */
  log: Logger;
  metrics: Metrics;
  /** Where verification jobs go (POST /admin/verify, new contracts); workers run them, never this process. */
  verifyQueue: VerifyQueue;
}
