// npm start: builds dist/ when it is missing or stale, then serves dist/ and the API until SIGTERM/SIGINT.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { build, CatalogInvalidError } from '../build/pipeline/build.ts';
import { BUILD_INFO } from '../build/pipeline/dist-swap.ts';
import { catalogStoreFor } from '../build/catalog/catalog-store.ts';
import { tryLock } from '../build/catalog/storage/redis-lock.ts';
import { ConfigError, type Config, loadConfig, StorageUrlError } from '../build/config.ts';
import { lockTtlMs } from './rebuild/shared.ts';
import { type RunningServer, startServer } from './server.ts';
import { createLogger } from './ops/logger.ts';
import { exitOnHelp } from '../build/cli/help.ts';

/** Newest modification time under dir (files and folders), skipping the named subfolders. */
async function newestMtime(dir: string, skip: ReadonlySet<string> = new Set()): Promise<number> {
  let newest = (await fsp.stat(dir).catch(() => null))?.mtimeMs ?? 0;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (skip.has(entry.name)) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory() ? await newestMtime(p, skip) : ((await fsp.stat(p).catch(() => null))?.mtimeMs ?? 0),
    );
  }
  return newest;
}

const ROOT = path.resolve(import.meta.dirname, '..');
/** What the site is made with besides the catalog: the templates and the build code (not its bench data). */
const SITE_SOURCES = [path.join(ROOT, 'site'), path.join(ROOT, 'build')];
const NOT_SITE_SOURCES = new Set(['bench', 'cli']);

/**
 * Why dist/ must be built before serving, or null when it is current: missing, made for another BASE_URL or
 * API_ORIGIN (its links and `_redirects` would point at the old host), or older than the catalog, the
 * templates or the build code.
 */
export async function staleReason(config: Config): Promise<string | null> {
  const built = await fsp.stat(path.join(config.distDir, BUILD_INFO)).catch(() => null);
  if (!built) return 'dist/ is missing';
  const info = JSON.parse(await fsp.readFile(path.join(config.distDir, BUILD_INFO), 'utf8').catch(() => '{}')) as {
    base_url?: string;
    api_origin?: string;
  };
  if (info.base_url !== config.baseUrl) return `dist/ was built for BASE_URL ${info.base_url ?? '(unknown)'}`;
  if ((info.api_origin ?? info.base_url) !== config.apiOrigin)
    return `dist/ was built for API_ORIGIN ${info.api_origin ?? info.base_url}`;
  if ((await newestMtime(config.catalogDir)) > built.mtimeMs) return 'the catalog changed since dist/ was built';
  for (const dir of SITE_SOURCES) {
    if ((await newestMtime(dir, NOT_SITE_SOURCES)) > built.mtimeMs)
      return `${path.basename(dir)}/ changed since dist/ was built`;
  }
  return null;
}

async function buildNow(config: Config, reason: string): Promise<void> {
  log.info({ reason }, 'building dist/ before serving');
  try {
    const r = await build({
      catalogDir: config.catalogDir,
      distDir: config.distDir,
      baseUrl: config.baseUrl,
      apiOrigin: config.apiOrigin,
      ...(config.storageUrl ? { storageUrl: config.storageUrl } : {}),
    });
    log.info({ tools_count: r.toolsCount, ms: Math.round(r.ms) }, 'dist/ built');
  } catch (error) {
    if (!(error instanceof CatalogInvalidError)) throw error;
    log.error(
      { errors: error.errors.slice(0, 50) },
      'catalog invalid: serving the previous dist/ (if any); fix it with `npm run validate`',
    );
  }
}

/**
 * The start-up build. On Redis, STORAGE_URL must answer before anything is built or served from it, and
 * the build takes the shared rebuild lock: processes starting together on one dist/ build it once; a
 * process that finds the lock taken serves dist/ as it is (its server catches up through the pending changes).
 */
async function startupBuild(config: Config, reason: string | null): Promise<void> {
  if (!config.storageUrl) {
    if (reason) await buildNow(config, reason);
    return;
  }
  const store = catalogStoreFor(config);
  try {
    await store.overlay?.ready();
    if (!reason || !store.overlay) return;
    const lock = await tryLock(store.overlay.client(), store.overlay.names.lock, lockTtlMs());
    if (!lock) {
      log.info('dist/ is being built by another process on this Redis: serving it as it is');
      return;
    }
    try {
      await buildNow(config, reason);
    } finally {
      await lock.release();
    }
  } finally {
    await store.storage.dispose();
  }
}

/**
 * SIGTERM or SIGINT, from whichever launcher (npm, a process manager, a terminal): stop accepting, let
 * requests in flight finish (SHUTDOWN_GRACE_MS), flush telemetry, release Redis locks, exit 0. A second
 * signal exits at once.
 */
function stopOnSignals(server: RunningServer): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutdown started');
    server.close().then(
      () => {
        log.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: (error as Error).message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    // A STORAGE_URL of another scheme is reported as an unreachable one is (below: exit 1).
    if (error instanceof ConfigError && !(error instanceof StorageUrlError)) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // --no-build: serve the API (and whatever dist/ holds) without building, e.g. behind a CDN that hosts dist/.
  await startupBuild(config, process.argv.includes('--no-build') ? null : await staleReason(config));
  let server: RunningServer;
  try {
    server = await startServer(config, { log });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.error(`not started: port ${config.port} on ${config.host} is already in use (set PORT to another port)`);
    process.exit(1);
  }
  log.info(
    { url: server.url, base_url: config.baseUrl },
    `Tool Contract Catalog listening on ${server.url} (public URL ${config.baseUrl})`,
  );
  stopOnSignals(server);
}

exitOnHelp(`
usage: npm start [-- --no-build]     (or: node api/main.ts [--no-build])
Builds dist/ when it is missing or stale (catalog, templates, build code, BASE_URL or API_ORIGIN changed),
then serves the site and the API. --no-build serves dist/ as it is.
Settings from the environment (README, Configuration): PORT, HOST, BASE_URL, API_ORIGIN, CATALOG_DIR,
DIST_DIR, DATA_DIR, STORAGE_URL, ADMIN_SECRET, METRICS_TOKEN, LOG_LEVEL, SHUTDOWN_GRACE_MS, ...
Stops cleanly on SIGTERM or SIGINT. Logs are JSON lines on stdout.
`);
const log = createLogger();

try {
  await main();
} catch (error) {
  // An unreachable or malformed STORAGE_URL is an operator's problem, not a bug: one line, no stack,
  // never the password (redactUrl).
  if (!(error instanceof StorageUrlError)) throw error;
  console.error(`not started: ${error.message}`);
  process.exit(1);
}
