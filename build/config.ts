// Configuration from the environment, read in one place. Every variable is documented in the README.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Absolute public URL without a trailing slash; used in every discovery file. */
  baseUrl: string;
  /** API_ORIGIN: where the CDN's `_redirects` send dynamic paths (the API server); default BASE_URL. */
  apiOrigin: string;
  catalogDir: string;
  distDir: string;
  dataDir: string;
  adminSecret: string | undefined;
  /** METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** A redis:// or rediss:// URL (loadConfig refuses any other scheme), or undefined for files. */
  storageUrl: string | undefined;
}

export class ConfigError extends Error {}

/** STORAGE_URL is malformed or its Redis cannot be reached: the process cannot start (message is password-free). */
export class StorageUrlError extends ConfigError {}

/** The URL with any password replaced, for messages (STORAGE_URL may carry one). */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`PORT must be an integer 0..65535, got ${JSON.stringify(raw)}`);
  return n;
}

export function normalizeBaseUrl(raw: string, name = 'BASE_URL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must use http or https`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Unset, or a Redis URL (redis:// or rediss://): the one check of STORAGE_URL's scheme. */
function parseStorageUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^rediss?:\/\//i.test(raw))
    throw new StorageUrlError(`STORAGE_URL must be redis://host:port/db (or rediss://), got ${redactUrl(raw)}`);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const port = parsePort(env.PORT);
  const host = env.HOST || '127.0.0.1';
  const baseUrl = normalizeBaseUrl(env.BASE_URL || `http://localhost:${port}`);
  return {
    port,
    host,
    baseUrl,
    apiOrigin: env.API_ORIGIN ? normalizeBaseUrl(env.API_ORIGIN, 'API_ORIGIN') : baseUrl,
    catalogDir: path.resolve(cwd, env.CATALOG_DIR || 'catalog'),
    distDir: path.resolve(cwd, env.DIST_DIR || 'dist'),
    dataDir: path.resolve(cwd, env.DATA_DIR || '.data'),
    adminSecret: env.ADMIN_SECRET || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    storageUrl: parseStorageUrl(env.STORAGE_URL),
  };
}
