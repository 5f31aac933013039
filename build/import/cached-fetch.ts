// The importer's way to the registries: translate's upstream fetch (same limits, same errors) with what a bulk
// run needs on top. Conditional requests: an answer with an ETag or Last-Modified is kept on disk (one file
// per URL under the cache folder) and the next run sends If-None-Match / If-Modified-Since, so a 304 costs no
// body and the cached JSON is used. Retries: 429 and 5xx answers and network failures are tried again with
// exponential backoff and full jitter, waiting at least what Retry-After asks (seconds or an HTTP date); while
// a host has asked to wait, no request goes to it.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { UpstreamError } from '../translate/upstream-error.ts';
import { fetchUpstream, type JsonFetch, jsonOf, type UpstreamConfig } from '../translate/upstream-fetch.ts';

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** Backoff before retry n is random in [0, base·2^n], capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After honoured; a longer one fails the item rather than stall the run. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

export interface FetchStats {
  requests: number;
  /** Answers 304: the cached body was used. */
  notModified: number;
  retries: number;
}

interface CacheEntry {
  url: string;
  etag?: string;
  last_modified?: string;
  body: string;
}

/** Milliseconds a Retry-After header asks for, or null when there is none (or it cannot be read). */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function backoffMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  return Math.round(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const first = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);

export function createCachedFetch(
  cfg: UpstreamConfig,
  cacheDir: string,
  policy: RetryPolicy = DEFAULT_RETRY,
): { fetchJson: JsonFetch; stats: FetchStats } {
  const stats: FetchStats = { requests: 0, notModified: 0, retries: 0 };
  // A Retry-After speaks for the host, not one request: every request to it waits, not only the refused one.
  const pausedUntil = new Map<string, number>();
  const hostOf = (url: string) => new URL(url).host;
  const fileOf = (url: string) => path.join(cacheDir, `${createHash('sha256').update(url).digest('hex')}.json`);

  const readEntry = async (url: string): Promise<CacheEntry | null> => {
    try {
      const entry = JSON.parse(await fsp.readFile(fileOf(url), 'utf8')) as CacheEntry;
      return entry.url === url && typeof entry.body === 'string' ? entry : null;
    } catch {
      return null;
    }
  };
  const writeEntry = async (entry: CacheEntry) => {
    await fsp.mkdir(cacheDir, { recursive: true });
    const file = fileOf(entry.url);
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify(entry));
    await fsp.rename(tmp, file);
  };

  const fetchJson: JsonFetch = async (url, name, options = {}) => {
    const cached = await readEntry(url);
    const conditional: Record<string, string> = {};
    if (cached?.etag) conditional['if-none-match'] = cached.etag;
    if (cached?.last_modified) conditional['if-modified-since'] = cached.last_modified;
    let failure: UpstreamError | null = null;
    let attempts = 0;
    for (let attempt = 0; attempt <= policy.retries; attempt++) {
      attempts++;
      if (attempt > 0) stats.retries++;
      const pause = (pausedUntil.get(hostOf(url)) ?? 0) - Date.now();
      if (pause > 0) await sleep(pause);
      stats.requests++;
      let wait: number | null = null;
      try {
        const res = await fetchUpstream(url, cfg, name, { headers: { ...options.headers, ...conditional } });
        if (res.status === 304 && cached) {
          stats.notModified++;
          return JSON.parse(cached.body);
        }
        if (res.status !== 429 && res.status < 500) {
          const value = jsonOf(res, name);
          const etag = first(res.headers.etag);
          const lastModified = first(res.headers['last-modified']);
          if (etag || lastModified) {
            await writeEntry({
              url,
              ...(etag ? { etag } : {}),
              ...(lastModified ? { last_modified: lastModified } : {}),
              body: res.body.toString('utf8'),
            });
          }
          return value;
        }
        try {
          jsonOf(res, name);
        } catch (error) {
          failure = error as UpstreamError;
        }
        wait = retryAfterMs(res.headers['retry-after']);
        if (wait !== null && wait > policy.maxRetryAfterMs) break;
        if (wait !== null) pausedUntil.set(hostOf(url), Math.max(pausedUntil.get(hostOf(url)) ?? 0, Date.now() + wait));
      } catch (error) {
        // Too large never gets smaller, a 404 is an answer, and a name that does not resolve or an address we
        // refuse stays so; the rest (reset, refused, timeout) may pass.
        if (!(error instanceof UpstreamError) || error.tooLarge || error.status === 404) throw error;
        if (error.code === 'ENOTFOUND' || error.code === 'EPRIVATE') throw error;
        failure = error;
      }
      if (attempt < policy.retries) await sleep(Math.max(wait ?? 0, backoffMs(attempt, policy)));
    }
    const last = failure ?? new UpstreamError(502, `${name} failed`);
    throw new UpstreamError(last.status, `${last.message} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, {
      ...(last.httpStatus ? { httpStatus: last.httpStatus } : {}),
    });
  };
  return { fetchJson, stats };
}
