// npm start: builds dist/ when it is missing or older than the catalog, then serves dist/ and the API.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { build, CatalogInvalidError } from '../build/pipeline/build.ts';
import { BUILD_INFO } from '../build/pipeline/dist-swap.ts';
import { catalogStoreFor } from '../build/catalog/catalog-store.ts';
import { tryLock } from '../build/catalog/storage/redis-lock.ts';
import { ConfigError, type Config, loadConfig, StorageUrlError } from '../build/config.ts';
import { lockTtlMs } from './rebuild/shared.ts';
import { startServer } from './server.ts';

async function newestMtime(dir: string): Promise<number> {
  let newest = (await fsp.stat(dir).catch(() => null))?.mtimeMs ?? 0;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestMtime(p) : (await fsp.stat(p).catch(() => null))?.mtimeMs ?? 0);
  }
  return newest;
}

export async function needsBuild(config: Config): Promise<boolean> {
  const built = await fsp.stat(path.join(config.distDir, BUILD_INFO)).catch(() => null);
  if (!built) return true;
  return (await newestMtime(config.catalogDir)) > built.mtimeMs;
}

async function buildNow(config: Config): Promise<void> {
  console.error('dist/ is missing or older than the catalog: building');
  try {
    const r = await build({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl, ...(config.storageUrl ? { storageUrl: config.storageUrl } : {}) });
    console.error(`built ${r.toolsCount} tools in ${(r.ms / 1000).toFixed(1)} s`);
  } catch (error) {
    if (!(error instanceof CatalogInvalidError)) throw error;
    console.error(error.message);
    console.error('serving the previous dist/ (if any); fix the catalog with `npm run validate`');
  }
}

/**
 * The start-up build. On Redis, STORAGE_URL must answer before anything is built or served from it, and
 * the build takes the shared rebuild lock: processes starting together on one dist/ build it once; a
 * process that finds the lock taken serves dist/ as it is (its server catches up through the pending changes).
 */
async function startupBuild(config: Config, wanted: boolean): Promise<void> {
  if (!config.storageUrl) {
    if (wanted) await buildNow(config);
    return;
  }
  const store = catalogStoreFor(config);
  try {
    await store.overlay?.ready();
    if (!wanted || !store.overlay) return;
    const lock = await tryLock(store.overlay.client(), store.overlay.names.lock, lockTtlMs());
    if (!lock) { console.error('dist/ is being built by another process on this Redis: serving it as it is'); return; }
    try { await buildNow(config); } finally { await lock.release(); }
  } finally {
    await store.storage.dispose();
  }
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    // A STORAGE_URL of another scheme is reported as an unreachable one is (below: exit 1).
    if (error instanceof ConfigError && !(error instanceof StorageUrlError)) { console.error(error.message); process.exit(2); }
    throw error;
  }
  // --no-build: serve the API (and whatever dist/ holds) without building, e.g. behind a CDN that hosts dist/.
  await startupBuild(config, !process.argv.includes('--no-build') && (await needsBuild(config)));
  const server = await startServer(config);
  console.log(`Tool Contract Catalog listening on ${server.url} (public URL ${config.baseUrl})`);
  const stop = () => { server.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

try {
  await main();
} catch (error) {
  // An unreachable or malformed STORAGE_URL is an operator's problem, not a bug: one line, no stack,
  // never the password (redactUrl).
  if (!(error instanceof StorageUrlError)) throw error;
  console.error(`not started: ${error.message}`);
  process.exit(1);
}
