// Where an API lives (base_url) and where its definition came from (source_url).
import type { SpecId } from './naming.ts';
import type { UrlVariable } from './manifest.ts';
import { isObject, type Json } from './refs.ts';
import { shortPhrase } from './returns.ts';

/** Hosts that are placeholders, not a public API (APIs.guru uses `.local` when the real host is unknown). */
export function isPlaceholderHost(host: string): boolean {
  const h = host.toLowerCase();
  return (
    h === 'localhost' ||
    h.endsWith('.local') ||
    h.endsWith('.localhost') ||
    /(^|\.)example\.(com|org|net)$/.test(h) ||
    h.endsWith('.example') ||
    h.endsWith('.test') ||
    h.endsWith('.invalid') ||
    /^(127|10|0)\.\d+\.\d+\.\d+$/.test(h) ||
    /^192\.168\./.test(h) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(h) ||
    !h.includes('.') ||
    new RegExp(`(^|[.-])(your|my)[-_]?(${PLACEHOLDER_NOUN})\\b`).test(h) ||
    /(^|[.-])(placeholder|sample|changeme)([.-]|$)/.test(h)
  );
}

// Hosts that serve files, not APIs: a relative server URL must not be resolved against them.
const FILE_HOSTS =
  /(^|\.)(githubusercontent\.com|github\.com|gitlab\.com|bitbucket\.org|postman\.com|getpostman\.com|swaggerhub\.com|apis\.guru)$/i;

function originUrl(info: Json): string | undefined {
  const origin = Array.isArray(info['x-origin']) ? info['x-origin'][info['x-origin'].length - 1] : info['x-origin'];
  return isObject(origin) && typeof origin.url === 'string' ? origin.url : undefined;
}

/** A server: its URL as written and its variables (3.x `servers[].variables`). */
interface Server {
  url: string;
  variables: Record<string, UrlVariable>;
}

// Words that mark a sample value: `your-domain`, `<token>`, `example`, `xxx`, `sample`, `placeholder`.
const PLACEHOLDER_NOUN =
  'domain|company|server|host|instance|site|shop|store|org|tenant|account|app|subdomain|name|region|workspace';
const SAMPLE_VALUE = new RegExp(
  `(^|[^a-z])(your|my)[-_ ]?(${PLACEHOLDER_NOUN}|key|token)|example|sample|placeholder|changeme|xxx|[<>{}]|^(${PLACEHOLDER_NOUN}|hostname)$`,
  'i',
);
// Variables that hold a secret: their default is always a sample (Telegram's bot token).
const SECRET_NAME = /token|secret|password|api[-_]?key|apikey/i;
// A path segment that is a credential baked into the URL (`bot123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11`).
const SAMPLE_TOKEN_SEGMENT = /^([a-z]*)(\d{3,}:[\w-]{10,})$/i;

function readVariables(raw: unknown): Record<string, UrlVariable> {
  const out: Record<string, UrlVariable> = {};
  if (!isObject(raw)) return out;
  for (const [name, v] of Object.entries(raw)) {
    if (!isObject(v)) continue;
    const variable: UrlVariable = {};
    const enumValues = Array.isArray(v.enum)
      ? v.enum.filter((e) => typeof e === 'string' || typeof e === 'number').map(String)
      : [];
    const value = v.default ?? enumValues[0];
    if (value !== undefined && value !== null && String(value) !== '') variable.default = String(value).slice(0, 500);
    if (enumValues.length > 1) variable.enum = enumValues.slice(0, 40).map((e) => e.slice(0, 200));
    if (typeof v.description === 'string' && v.description.trim())
      variable.description = shortPhrase(v.description).slice(0, 200);
    if (SECRET_NAME.test(name) || (variable.default !== undefined && SAMPLE_VALUE.test(variable.default)))
      variable.placeholder = true;
    out[name.slice(0, 100)] = variable;
  }
  return out;
}

/** Candidate servers in definition order: 3.x `servers`, or 2.0 `schemes` + `host` + `basePath`. */
function serverCandidates(doc: Json): Server[] {
  if (Array.isArray(doc.servers)) {
    return doc.servers
      .filter(isObject)
      .filter((s) => typeof s.url === 'string')
      .map((s) => ({ url: String(s.url).trim(), variables: readVariables(s.variables) }));
  }
  if (typeof doc.swagger === 'string') {
    const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
    if (typeof doc.host !== 'string' || !doc.host) return [{ url: basePath || '/', variables: {} }];
    const schemes = Array.isArray(doc.schemes) && doc.schemes.length > 0 ? doc.schemes : ['https'];
    return schemes
      .filter((s): s is string => s === 'https' || s === 'http')
      .map((s) => ({ url: `${s}://${doc.host}${basePath}`, variables: {} }));
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

export interface BaseUrl {
  /** Callable URL, or a template with `{variables}` when `template` is set. */
  url: string;
  variables?: Record<string, UrlVariable>;
  template?: true;
  insecure?: true;
}

/** Fills variables with their defaults except placeholders; undefined when the result is not an http(s) URL. */
function resolveServer(server: Server, origin: string | undefined): { url: URL; kept: string[] } | undefined {
  const kept: string[] = [];
  // Placeholders are swapped for a marker that survives URL parsing, and put back afterwards.
  let url = server.url;
  for (const [name, v] of Object.entries(server.variables)) {
    if (!url.includes(`{${name}}`)) continue;
    if (v.default === undefined || v.placeholder) {
      kept.push(name);
      url = url.split(`{${name}}`).join(`var-${kept.length - 1}-x`);
    } else url = url.split(`{${name}}`).join(v.default);
  }
  // A variable the server does not declare (`https://{tenant}.example.com`) is a placeholder too.
  url = url.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    kept.push(name);
    return `var-${kept.length - 1}-x`;
  });
  const parsed = absolute(url, origin);
  if (!parsed || !/^https?:$/.test(parsed.protocol)) return undefined;
  return { url: parsed, kept };
}

/**
 * The base URL: among the servers (no servers = "/"), the first public https one, else public http,
 * else a placeholder; without a trailing slash, query or fragment. Server variables are resolved to their
 * defaults and listed. Placeholder and local hosts, sample values and credentials baked into the URL become
 * `{variables}` of a template (never presented as callable). undefined when no server is usable.
 */
export function serverOf(doc: Json): BaseUrl | undefined {
  const info = isObject(doc.info) ? doc.info : {};
  const servers = serverCandidates(doc);
  const resolved = (servers.length > 0 ? servers : [{ url: '/', variables: {} }])
    .map((server, i) => ({ server, i, r: resolveServer(server, originUrl(info)) }))
    .filter((c): c is typeof c & { r: NonNullable<typeof c.r> } => c.r !== undefined);
  const placeholder = (c: (typeof resolved)[number]) => c.r.kept.length > 0 || isPlaceholderHost(c.r.url.hostname);
  const rank = (c: (typeof resolved)[number]) => (placeholder(c) ? 2 : 0) + (c.r.url.protocol === 'https:' ? 0 : 1);
  const best = resolved.sort((a, b) => rank(a) - rank(b) || a.i - b.i)[0];
  if (!best) return undefined;

  const variables: Record<string, UrlVariable> = {};
  for (const [name, v] of Object.entries(best.server.variables))
    if (best.server.url.includes(`{${name}}`)) variables[name] = v;
  let text = `${best.r.url.origin}${best.r.url.pathname}`.replace(/\/+$/, '');
  best.r.kept.forEach((name, n) => {
    text = text.split(`var-${n}-x`).join(`{${name}}`);
    variables[name] ??= { placeholder: true };
  });
  const host = best.r.url.hostname;
  if (best.r.kept.length === 0 && isPlaceholderHost(host)) {
    text = text.replace(best.r.url.host, '{host}');
    variables.host = { default: best.r.url.host, placeholder: true };
  }
  text = text
    .split('/')
    .map((segment, i) => {
      const m = i >= 3 ? SAMPLE_TOKEN_SEGMENT.exec(segment) : null;
      if (!m) return segment;
      variables.token = { default: m[2], placeholder: true };
      return `${m[1]}{token}`;
    })
    .join('/');

  const out: BaseUrl = { url: text };
  if (Object.keys(variables).length > 0) out.variables = variables;
  if (/\{[^}]+\}/.test(text)) out.template = true;
  if (best.r.url.protocol === 'http:') out.insecure = true;
  return out;
}

/** The host of a base URL, unless it is a placeholder (`{host}`); names providers outside the directory. */
export function hostnameOf(base: BaseUrl | undefined): string | undefined {
  if (!base) return undefined;
  try {
    const host = new URL(base.url).hostname;
    return host && !base.url.split('/')[2]?.includes('{') ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The directory entry a definition belongs to, from its own info block. */
export function specIdOf(doc: Json): SpecId | undefined {
  const info = isObject(doc.info) ? doc.info : {};
  if (typeof info['x-providerName'] !== 'string') return undefined;
  return {
    provider: info['x-providerName'],
    service: typeof info['x-serviceName'] === 'string' ? info['x-serviceName'] : undefined,
  };
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
  const swagger =
    typeof doc.swagger === 'string' ||
    (isObject(origin) && origin.format === 'swagger') ||
    /api-spec-converter/.test(converter);
  const segments = [id.provider, ...(id.service ? [id.service] : []), version].map(encodeURIComponent);
  return `https://api.apis.guru/v2/specs/${segments.join('/')}/${swagger ? 'swagger' : 'openapi'}.json`;
}
