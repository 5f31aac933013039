// Where an API lives (base_url) and where its definition came from (source_url).
import type { SpecId } from './naming.ts';
import { isObject, type Json } from './refs.ts';

/** Hosts that are placeholders, not a public API (APIs.guru uses `.local` when the real host is unknown). */
export function isPlaceholderHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.local') || h.endsWith('.localhost') || h === 'example.com'
    || h.endsWith('.example.com') || h.endsWith('.example') || /^(127|10|0)\.\d+\.\d+\.\d+$/.test(h) || /^192\.168\./.test(h)
    || !h.includes('.');
}

// Hosts that serve files, not APIs: a relative server URL must not be resolved against them.
const FILE_HOSTS = /(^|\.)(githubusercontent\.com|github\.com|gitlab\.com|bitbucket\.org|postman\.com|getpostman\.com|swaggerhub\.com|apis\.guru)$/i;

function originUrl(info: Json): string | undefined {
  const origin = Array.isArray(info['x-origin']) ? info['x-origin'][info['x-origin'].length - 1] : info['x-origin'];
  return isObject(origin) && typeof origin.url === 'string' ? origin.url : undefined;
}

/** A server entry's URL with variables replaced by their default (or first enum value). */
function serverUrl(server: Json): string | undefined {
  if (typeof server.url !== 'string') return undefined;
  let url = server.url.trim();
  const vars = isObject(server.variables) ? server.variables : {};
  for (const [name, v] of Object.entries(vars)) {
    const value = isObject(v) ? (v.default ?? (Array.isArray(v.enum) ? v.enum[0] : undefined)) : undefined;
    if (value !== undefined && value !== null) url = url.split(`{${name}}`).join(String(value));
  }
  return url;
}

/** Candidate server URLs in definition order: 3.x `servers`, or 2.0 `schemes` + `host` + `basePath`. */
function serverCandidates(doc: Json): string[] {
  if (Array.isArray(doc.servers)) {
    return doc.servers.filter(isObject).map(serverUrl).filter((u): u is string => u !== undefined);
  }
  if (typeof doc.swagger === 'string') {
    const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
    if (typeof doc.host !== 'string' || !doc.host) return [basePath || '/'];
    const schemes = Array.isArray(doc.schemes) && doc.schemes.length > 0 ? doc.schemes : ['https'];
    return schemes.filter((s): s is string => s === 'https' || s === 'http').map((s) => `${s}://${doc.host}${basePath}`);
  }
  return [];
}

/** An absolute http(s) URL for one candidate; relative ones resolve against the definition's origin. */
function absolute(candidate: string, origin: string | undefined): URL | undefined {
  let raw = candidate;
  if (raw.startsWith('//')) raw = `https:${raw}`;
  else if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/|$)/i.test(raw)) raw = `https://${raw}`; // bare host
  try {
    if (/^https?:\/\//i.test(raw)) return new URL(raw);
    // Per OpenAPI, a relative server URL is relative to where the definition is served.
    if (!origin || !/^https?:\/\//i.test(origin)) return undefined;
    const base = new URL(origin);
    if (FILE_HOSTS.test(base.hostname)) return undefined;
    return new URL(raw || '/', base);
  } catch {
    return undefined;
  }
}

/**
 * The base URL: among the servers (no servers = "/"), the first public https one, else public http,
 * else a placeholder host; without a trailing slash, query or fragment. undefined when none is usable.
 */
export function baseUrlOf(doc: Json): string | undefined {
  const info = isObject(doc.info) ? doc.info : {};
  const candidates = serverCandidates(doc);
  const urls = (candidates.length > 0 ? candidates : ['/'])
    .map((c) => absolute(c, originUrl(info)))
    .filter((u): u is URL => u !== undefined && /^https?:$/.test(u.protocol) && !/[{}]|%7b|%7d/i.test(u.href));
  const rank = (u: URL) => (isPlaceholderHost(u.hostname) ? 2 : 0) + (u.protocol === 'https:' ? 0 : 1);
  const best = urls.map((u, i) => ({ u, i })).sort((a, b) => rank(a.u) - rank(b.u) || a.i - b.i)[0]?.u;
  if (!best) return undefined;
  return `${best.origin}${best.pathname}`.replace(/\/+$/, '');
}

/** The directory entry a definition belongs to, from its own info block. */
export function specIdOf(doc: Json): SpecId | undefined {
  const info = isObject(doc.info) ? doc.info : {};
  if (typeof info['x-providerName'] !== 'string') return undefined;
  return { provider: info['x-providerName'], service: typeof info['x-serviceName'] === 'string' ? info['x-serviceName'] : undefined };
}

/**
 * The APIs.guru URL of the definition: `https://api.apis.guru/v2/specs/<provider>[/<service>]/<version>/
 * <swagger|openapi>.json`. APIs.guru keeps a definition as Swagger 2.0 when its origin was Swagger or a
 * format converted by api-spec-converter (WADL, Swagger 1.2), else as OpenAPI 3; the npm package converts
 * everything to 3.x, so the file name is inferred from the recorded origin.
 */
export function sourceUrlOf(doc: Json, id: SpecId): string {
  const info = isObject(doc.info) ? doc.info : {};
  const version = typeof info.version === 'string' && info.version ? info.version : '1.0.0';
  const origins = Array.isArray(info['x-origin']) ? info['x-origin'] : [info['x-origin']];
  const origin = origins[origins.length - 1];
  const converter = isObject(origin) && isObject(origin.converter) ? String(origin.converter.url ?? '') : '';
  const swagger = typeof doc.swagger === 'string' || (isObject(origin) && origin.format === 'swagger') || /api-spec-converter/.test(converter);
  const segments = [id.provider, ...(id.service ? [id.service] : []), version].map(encodeURIComponent);
  return `https://api.apis.guru/v2/specs/${segments.join('/')}/${swagger ? 'swagger' : 'openapi'}.json`;
}
