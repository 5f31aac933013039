// Starts the app on a node:http server (so timeouts against slow clients are ours to set) and loads the
// catalog snapshot it answers from.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import { catalogStoreFor } from '../build/catalog/catalog-store.ts';
import type { Config } from '../build/config.ts';
import { loadSnapshot } from '../build/catalog/snapshot.ts';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';
import { createRebuildScheduler, staleAids } from './rebuild/scheduler.ts';
import { workerBuilder } from './rebuild/worker.ts';
import { contributionLimiter } from './services/contributions.ts';
import { loadApiCatalog } from './services/apis.ts';
import { createRuntimeState } from './state/runtime-state.ts';
import { scaleOut } from './rebuild/scale-out.ts';
import { builtExpansions, createToolSearch } from './services/tool-search.ts';

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
}

export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  // Files under DATA_DIR, or Redis when STORAGE_URL says so (runtime-state.ts decides). First, so an
  // unreachable Redis stops the start before anything else is loaded.
  const runtime = await createRuntimeState(config, { telemetryRatePerMin: options.telemetryRatePerMin });
  const { telemetry } = runtime;
  // The catalog files, under the Redis overlay of admin writes when STORAGE_URL is redis://.
  const store = catalogStoreFor(config);
  const snapshot = await loadSnapshot(store).catch(async (error) => {
    await store.storage.dispose();
    await runtime.close();
    throw error;
  });
  if (snapshot.errors.length) {
    for (const e of snapshot.errors.slice(0, 20)) console.error(`skipped: ${e}`);
  }
  // Rebuilds run on a worker thread from the snapshot current when each build starts; with several
  // processes on one Redis, behind the shared rebuild lock (scale-out.ts).
  const builder = workerBuilder({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl, ...(store.overlay && config.storageUrl ? { storageUrl: config.storageUrl } : {}) });
  const group = scaleOut(store, () => ctx, (aids) => builder.run(ctx.snapshot.tools, aids));
  const rebuild = createRebuildScheduler({ run: group.run });
  if (config.adminSecret) builder.warm();
  const ctx: AppContext = {
    config,
    store,
    snapshot,
    startedAt: new Date(),
    toolSearch: createToolSearch(snapshot, { expansions: builtExpansions(config.distDir) }),
    apis: await loadApiCatalog(store),
    telemetry,
    reviewQueue: runtime.reviewQueue,
    telemetryLimiter: runtime.rateLimiter,
    client: { trustProxy: options.trustProxy ?? /^(1|true|yes)$/i.test(process.env.TRUST_PROXY ?? '') },
    clientHash: runtime.clientHash,
    rebuild,
    adminFailures: runtime.authFailures,
    contributeLimiter: contributionLimiter(runtime.createLimiter),
  };
  // Writes whose rebuild was cut short by a crash or stop: let the static site catch up, in the background.
  await group.start(rebuild, staleAids(config.catalogDir, config.distDir));
  const app = createApp(ctx);
  const handle = toNodeHandler(app);
  // Timeouts are enforced on each check, every second (Node's default is every 30 s).
  const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    // Answered before its body arrived in full (a 413 mid-stream, a 404 before reading): `Connection:
    // close`, so Node ends the connection after the answer instead of reading a body that may never end.
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
      if (!req.complete) this.shouldKeepAlive = false;
      return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    void handle(req, res);
  });
  // Slow clients may not hold sockets open: headers within 10 s, whole request within 30 s.
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await group.close();
    await rebuild.close();
    await store.storage.dispose();
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
      await new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
      // A build in flight finishes (its swap is atomic either way); queued aids are left to the next start.
      await group.close();
      await rebuild.close();
      await builder.close();
      await store.storage.dispose();
      // After the last request: every acknowledged event is already durable; this releases files and connections.
      await runtime.close();
    },
  };
}
