// The one place that chooses where runtime state lives (telemetry counters, rate-limit buckets, the admin
// lockout, the review queue): files under DATA_DIR for one process, or Redis (STORAGE_URL=redis://host:port/db) for several
// processes behind a load balancer. Routes only see the interfaces.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createStorage, type Storage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { type Config, redactUrl, StorageUrlError } from '../../build/config.ts';
import { memoryAuthFailures } from './admin-auth/memory.ts';
import type { AuthFailures } from './admin-auth/types.ts';
import { redisAuthFailures } from './admin-auth/redis.ts';
import { tokenBucketLimiter } from './rate-limit/memory.ts';
import { redisRateLimiter } from './rate-limit/redis.ts';
import { type RateLimiter, telemetryRatePerMinute } from './rate-limit/types.ts';
import { fileReviewQueue } from './review-queue/file.ts';
import { redisReviewQueue } from './review-queue/redis.ts';
import type { ReviewQueue } from './review-queue/types.ts';
import { type ClientHasher, clientHasherOf, loadClientHasher } from './telemetry/client-hash.ts';
import { fileTelemetryStore } from './telemetry/file.ts';
import { redisTelemetryStore } from './telemetry/redis.ts';
import { memorySearchOutcomes } from './search-outcomes/memory.ts';
import { redisSearchOutcomes } from './search-outcomes/redis.ts';
import type { SearchOutcomeStore } from './search-outcomes/types.ts';
import type { TelemetryStore } from './telemetry/types.ts';

export interface RuntimeState {
  backend: 'fs' | 'redis';
  telemetry: TelemetryStore;
  /** What agents report after a search, by the rank of the answer (search-outcomes/types.ts). */
  searchOutcomes: SearchOutcomeStore;
  /** Per client and tool, on POST /api/v1/tools/{aid}. */
  rateLimiter: RateLimiter;
  reviewQueue: ReviewQueue;
  /**
   * Salted hash of a client address for trust evidence. The salt is shared by every process on the same
   * state (DATA_DIR file, or one Redis key), so a client is one client whichever instance it reaches.
   */
  clientHash: ClientHasher;
  /** Wrong admin secrets per client, for the lockout (shared by all processes on Redis). */
  authFailures: AuthFailures;
  /** Another limiter on the same backend (shared by all processes on Redis), e.g. for contributions. */
  createLimiter(options: { name: string; limit: number; windowMs?: number; now?: () => number }): RateLimiter;
  /** The unstorage instance over Redis (its driver holds the connection); absent for files. */
  storage?: Storage;
  /** Waits for in-flight writes, then releases files and connections. */
  close(): Promise<void>;
}

export interface RuntimeStateOptions {
  /** POSTs per minute per client and tool; RATE_LIMIT_TELEMETRY_PER_MIN by default. */
  telemetryRatePerMin?: number;
  /** Key namespace in Redis (default `tcc:`), so several catalogs can share one server. */
  redisPrefix?: string;
}

async function connectRedis(url: string): Promise<{ storage: Storage; client: Redis }> {
  const driver = redisDriver({
    url,
    base: 'tcc',
    // Commands from concurrent requests share round trips; a dead Redis fails a request within seconds
    // (the route answers 503) instead of queueing it forever.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    commandTimeout: 10_000,
    lazyConnect: true,
  });
  const storage = createStorage({ driver });
  const client = driver.getInstance?.() as Redis;
  // ioredis reports connection trouble as events; without a listener it prints each one as unhandled.
  let lastLog = 0;
  let ready = false;
  client.on('error', (error: Error) => {
    if (!ready || Date.now() - lastLog < 10_000) return;
    lastLog = Date.now();
    console.error(`redis: ${error.message}`);
  });
  try {
    await client.connect();
    await client.ping();
    ready = true;
  } catch (error) {
    client.disconnect();
    throw new StorageUrlError(`cannot reach Redis at ${redactUrl(url)}: ${(error as Error).message}`);
  }
  return { storage, client };
}

export async function createRuntimeState(config: Config, options: RuntimeStateOptions = {}): Promise<RuntimeState> {
  const perMinute = options.telemetryRatePerMin ?? telemetryRatePerMinute();
  const url = config.storageUrl;
  if (!url) {
    const telemetry = await fileTelemetryStore({ dataDir: config.dataDir });
    return {
      backend: 'fs',
      telemetry,
      searchOutcomes: memorySearchOutcomes(),
      rateLimiter: tokenBucketLimiter({ limit: perMinute }),
      clientHash: await loadClientHasher(config.dataDir),
      authFailures: memoryAuthFailures(),
      createLimiter: ({ name: _, ...options }) => tokenBucketLimiter(options),
      reviewQueue: await fileReviewQueue({ dataDir: config.dataDir }),
      close: () => telemetry.close(),
    };
  }
  const { storage, client } = await connectRedis(url);
  const prefix = options.redisPrefix ?? 'tcc:';
  const telemetry = redisTelemetryStore({ client, prefix });
  // The first process to start picks the salt; SET NX makes every later one use the same.
  await client.set(`${prefix}client-salt`, randomBytes(32).toString('hex'), 'NX');
  const salt = await client.get(`${prefix}client-salt`);
  if (!salt) throw new StorageUrlError('Redis lost the client salt just written (is it read-only or evicting keys?)');
  return {
    backend: 'redis',
    telemetry,
    searchOutcomes: redisSearchOutcomes({ client, prefix }),
    rateLimiter: redisRateLimiter({ client, limit: perMinute, prefix }),
    clientHash: clientHasherOf(salt),
    authFailures: redisAuthFailures({ client, prefix }),
    createLimiter: ({ name, ...options }) => redisRateLimiter({ client, ...options, prefix: `${prefix}${name}:` }),
    reviewQueue: redisReviewQueue({ client, prefix }),
    storage,
    async close() {
      await telemetry.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
