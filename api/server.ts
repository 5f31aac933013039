// Starts the app on a node:http server (so timeouts against slow clients are ours to set) and loads the
// catalog snapshot it answers from.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import { createCatalogStore } from '../build/catalog-store.ts';
import type { Config } from '../build/config.ts';
import { loadSnapshot } from '../build/snapshot.ts';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const store = createCatalogStore({ dir: config.catalogDir });
  const snapshot = await loadSnapshot(store);
  if (snapshot.errors.length) {
    for (const e of snapshot.errors.slice(0, 20)) console.error(`skipped: ${e}`);
  }
  const ctx: AppContext = { config, store, snapshot, startedAt: new Date() };
  const app = createApp(ctx);
  const server = http.createServer(toNodeHandler(app));
  // Slow clients may not hold sockets open: headers within 10 s, whole request within 30 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
