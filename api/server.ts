// Starts the app on a node:http server (so timeouts against slow clients are ours to set) and loads the
// catalog snapshot it answers from.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import { catalogStoreFor } from '../build/catalog/catalog-store.ts';
import type { Config } from '../build/config.ts';
import { loadSnapshot } from '../build/catalog/snapshot.ts';
import { createApp } from './app.ts';
import { compress } from './http/compress.ts';
import type { AppContext } from './context.ts';
import { createRebuildScheduler, staleAids } from './rebuild/scheduler.ts';
import { workerBuilder } from './rebuild/worker.ts';
import { contributionLimiter } from './services/contributions.ts';
import { loadApiCatalog } from './services/apis.ts';
import { createRuntimeState } from './state/runtime-state.ts';
import { scaleOut } from './rebuild/scale-out.ts';
import { builtExpansions, createToolSearch, type ToolSearch } from './services/tool-search.ts';
import { createLogger, type Logger } from './ops/logger.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { observeRequest } from './ops/request-observer.ts';
import { openVerifyQueue } from '../build/verify/queue/open.ts';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  close(): Promise<void>;
}

/** Runtime settings that are not part of Config; each defaults from the environment. */
export interface ServerOptions {
  /** RATE_LIMIT_TELEMETRY_PER_MIN: POSTs per minute per client and tool (0 = no limit). */
  telemetryRatePerMin?: number;
  /** TRUST_PROXY=1: take the client address from X-Forwarded-For. */
  trustProxy?: boolean;
  /** Slow clients: all headers within this (default 10 s), the whole request within requestTimeoutMs (30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** SHUTDOWN_GRACE_MS: how long close() lets requests in flight finish before cutting them (default 10 s). */
  shutdownGraceMs?: number;
  /** Where log lines go (default: JSON on stdout at LOG_LEVEL). */
  log?: Logger;
}

/** The search, timed into the metrics (ranking only: the HTTP histogram has the whole request). */
function timedSearch(search: ToolSearch, metrics: Metrics): ToolSearch {
  const rank = search.search.bind(search);
  search.search = (q, options) => {
    const started = performance.now();
    try {
      return rank(q, options);
    } finally {
      metrics.search('tools', (performance.now() - started) / 1000);
    }
  };
  return search;
}

/**
 * Stops accepting, lets requests in flight finish (idle keep-alive sockets are closed at once, busy ones
 * once their answer is sent), and cuts whatever is still open after the grace period.
 */
function drain(server: http.Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  // Files under DATA_DIR, or Redis when STORAGE_URL says so (runtime-state.ts decides). First, so an
  // unreachable Redis stops the start before anything else is loaded.
  const runtime = await createRuntimeState(config, { telemetryRatePerMin: options.telemetryRatePerMin });
  const { telemetry } = runtime;
  const log = options.log ?? createLogger();
  const metrics = createMetrics(() => ctx);
  // The catalog files, under the Redis overlay of admin writes when STORAGE_URL is redis://.
  const store = catalogStoreFor(config);
  const snapshot = await loadSnapshot(store).catch(async (error) => {
    await store.storage.dispose();
    await runtime.close();
    throw error;
  });
  if (snapshot.errors.length) {
    for (const e of snapshot.errors.slice(0, 20)) log.warn({ error: e }, 'catalog file skipped');
  }
  // Rebuilds run on a worker thread from the snapshot current when each build starts; with several
  // processes on one Redis, behind the shared rebuild lock (scale-out.ts).
  const builder = workerBuilder({
    catalogDir: config.catalogDir,
    distDir: config.distDir,
    baseUrl: config.baseUrl,
    apiOrigin: config.apiOrigin,
    ...(store.overlay && config.storageUrl ? { storageUrl: config.storageUrl } : {}),
  });
  const timedBuild = async (aids: string[] | null) => {
    const started = performance.now();
    log.info({ tools: aids?.length ?? 'all' }, 'rebuild started');
    try {
      const r = await builder.run(ctx.snapshot.tools, aids);
      metrics.rebuild('ok', (performance.now() - started) / 1000);
      log.info({ ms: Math.round(r.ms), incremental: r.incremental, tools_count: r.toolsCount }, 'rebuild finished');
      return r;
    } catch (error) {
      metrics.rebuild('failed', (performance.now() - started) / 1000);
      log.error({ err: (error as Error).message }, 'rebuild failed');
      throw error;
    }
  };
  const group = scaleOut(store, () => ctx, timedBuild);
  const rebuild = createRebuildScheduler({ run: group.run });
  if (config.adminSecret) builder.warm();
  const apis = await loadApiCatalog(store);
  const ctx: AppContext = {
    config,
    store,
    snapshot,
    startedAt: new Date(),
    toolSearch: timedSearch(
      createToolSearch(snapshot, { expansions: builtExpansions(config.distDir), apis: [...apis.byName.values()] }),
      metrics,
    ),
    apis,
    telemetry,
    searchOutcomes: runtime.searchOutcomes,
    reviewQueue: runtime.reviewQueue,
    telemetryLimiter: runtime.rateLimiter,
    client: { trustProxy: options.trustProxy ?? /^(1|true|yes)$/i.test(process.env.TRUST_PROXY ?? '') },
    clientHash: runtime.clientHash,
    rebuild,
    adminFailures: runtime.authFailures,
    contributeLimiter: contributionLimiter(runtime.createLimiter),
    log,
    metrics,
    verifyQueue: openVerifyQueue(config),
  };
  // Writes whose rebuild was cut short by a crash or stop: let the static site catch up, in the background.
  await group.start(rebuild, staleAids(config.catalogDir, config.distDir));
  const app = createApp(ctx);
  const handle = toNodeHandler(app);
  // Timeouts are enforced on each check, every second (Node's default is every 30 s).
  let closing = false;
  const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    // Answered before its body arrived in full (a 413 mid-stream, a 404 before reading): `Connection:
    // close`, so Node ends the connection after the answer instead of reading a body that may never end.
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
      // While shutting down, every answer closes its connection, so draining ends with the last answer.
      if (!req.complete || closing) this.shouldKeepAlive = false;
      return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    observeRequest(req, res, log, metrics);
    compress(req, res, () => void handle(req, res));
  });
  // Slow clients may not hold sockets open: headers within 10 s, whole request within 30 s.
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  // An idle keep-alive socket stays open longer than clients and proxies keep theirs (undici: the hint less 1 s;
  // load balancers 60 s): with Node's 5 s, a client answered late on a loaded machine could send its next POST on a
  // socket the server was closing and lose it to a reset (the likely cause of an ECONNRESET in the 10,000-POST Redis
  // test at load average 13).
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await group.close();
    await rebuild.close();
    await store.storage.dispose();
    await ctx.verifyQueue.close();
    await runtime.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    close: async () => {
      closing = true;
      await drain(server, options.shutdownGraceMs ?? Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000));
      // A build in flight finishes (its swap is atomic either way); queued aids are left to the next start.
      await group.close();
      await rebuild.close();
      await builder.close();
      await store.storage.dispose();
      await ctx.verifyQueue.close();
      // After the last request: every acknowledged event is already durable; this releases files and connections.
      await runtime.close();
    },
  };
}
