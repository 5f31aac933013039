// The only way translate (the server's and the importer's) fetches from the internet. A URL given by a caller must not turn the
// server into a proxy into its own network, so: only configured hosts; every DNS answer checked and the
// connection pinned to a checked address (no rebinding between check and connect); redirects followed by
// hand and only on the same host; 10 s for the whole exchange; at most 5 MB, counted while streaming.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { UPSTREAM } from './messages.ts';
import { UpstreamError } from './upstream-error.ts';

export { UpstreamError };

/** GETs JSON (the signature of fetchUpstreamJson without the config); the importer supplies its own. */
export type JsonFetch = (url: string, name: string, options?: { headers?: Record<string, string> }) => Promise<unknown>;

export interface UpstreamConfig {
  githubApi: string;
  pypi: string;
  npmRegistry: string;
  /** GITHUB_TOKEN: sent to the GitHub API only (60 requests an hour without it, 5,000 with). */
  githubToken?: string;
  /** npm's downloads API (trust.popularity). */
  npmDownloads: string;
  /** The official MCP registry (MCP_REGISTRY_URL), read through its v0.1 API. */
  mcpRegistry: string;
  /** Replaces the plain GET of fetchUpstreamJson: the importer's cached, retrying fetch. */
  fetchJson?: JsonFetch;
  /** host[:port] of other instances of this service translate may copy contracts from. */
  peerHosts: string[];
  /** ALLOW_PRIVATE_UPSTREAMS=1: tests run fake registries on loopback. Never in production. */
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
}

const base = (raw: string | undefined, fallback: string) => (raw || fallback).replace(/\/+$/, '');

export function upstreamConfig(env: NodeJS.ProcessEnv = process.env): UpstreamConfig {
  return {
    githubApi: base(env.GITHUB_API_URL, 'https://api.github.com'),
    pypi: base(env.PYPI_URL, 'https://pypi.org'),
    npmRegistry: base(env.NPM_REGISTRY_URL, 'https://registry.npmjs.org'),
    npmDownloads: base(env.NPM_DOWNLOADS_URL, 'https://api.npmjs.org'),
    mcpRegistry: base(env.MCP_REGISTRY_URL, 'https://registry.modelcontextprotocol.io'),
    ...(env.GITHUB_TOKEN ? { githubToken: env.GITHUB_TOKEN } : {}),
    peerHosts: (env.PEER_CATALOG_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    allowPrivate: /^(1|true|yes)$/i.test(env.ALLOW_PRIVATE_UPSTREAMS ?? ''),
    // UPSTREAM_TIMEOUT_MS only so tests need not wait 10 s for a silent fake upstream.
    timeoutMs: Number(env.UPSTREAM_TIMEOUT_MS) > 0 ? Number(env.UPSTREAM_TIMEOUT_MS) : 10_000,
    maxBytes: 5 * 1024 * 1024,
  };
}

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv4');
}
for (const [addr, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** Loopback, private, link-local, multicast, reserved and documentation ranges (IPv4-mapped included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return isPrivateAddress(mapped[1]);
  // The same IPv4-mapped address written in hex (::ffff:7f00:1 is 127.0.0.1).
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex?.[1] && hex[2]) {
    const [a, b] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
    return isPrivateAddress(`${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`);
  }
  const family = net.isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      // Every answer must be public: otherwise a later connection attempt could land on the private one.
      const bad = addresses.find((a) => !allowPrivate && isPrivateAddress(a.address));
      if (bad || addresses.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address`);
        e.code = 'EPRIVATE';
        return callback(e, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

export interface RawResponse {
  status: number;
  location: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function requestOnce(
  url: URL,
  cfg: UpstreamConfig,
  headers: Record<string, string>,
  deadline: number,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (
      net.isIP(url.hostname.replace(/^\[|\]$/g, '')) &&
      !cfg.allowPrivate &&
      isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ''))
    ) {
      return reject(Object.assign(new Error(`${url.hostname} is not a public address`), { code: 'EPRIVATE' }));
    }
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: checkedLookup(cfg.allowPrivate) as never,
        headers: { 'user-agent': 'tool-contract-catalog-translate/1.0', 'accept-encoding': 'identity', ...headers },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const length = Number(res.headers['content-length']);
        if (Number.isFinite(length) && length > cfg.maxBytes) {
          res.destroy();
          return reject(Object.assign(new Error('too large'), { code: 'ETOOLARGE' }));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > cfg.maxBytes) {
            res.destroy();
            reject(Object.assign(new Error('too large'), { code: 'ETOOLARGE' }));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status, location: res.headers.location, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      Math.max(1, deadline - Date.now()),
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end();
  });
}

/**
 * GETs from an allowed host, following same-host redirects, and answers whatever status came back. Throws
 * UpstreamError (502) only when no answer could be had: refused address, timeout, too large, network.
 */
export async function fetchUpstream(
  rawUrl: string,
  cfg: UpstreamConfig,
  name: string,
  options: { headers?: Record<string, string> } = {},
): Promise<RawResponse & { url: URL }> {
  let url = new URL(rawUrl);
  const deadline = Date.now() + cfg.timeoutMs;
  for (let hops = 0; ; hops++) {
    let res: RawResponse;
    try {
      // Redirects stay on the same host, so headers (a token) never reach another one.
      res = await requestOnce(url, cfg, { accept: 'application/json', ...options.headers }, deadline);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ETOOLARGE')
        throw new UpstreamError(502, UPSTREAM.tooLarge(name, cfg.maxBytes / 1024 / 1024), { tooLarge: true });
      if (code === 'EPRIVATE') throw new UpstreamError(502, UPSTREAM.notPublic(name, url.host), { code });
      if (code === 'ETIMEDOUT')
        throw new UpstreamError(502, UPSTREAM.timeout(name, url.host, cfg.timeoutMs / 1000), { code });
      throw new UpstreamError(502, UPSTREAM.unreachable(name, url.host, code ?? 'network error'), {
        ...(code ? { code } : {}),
      });
    }
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && res.location) {
      const next = new URL(res.location, url);
      // Same host only: a redirect is how an allowed host could send us anywhere.
      if (next.host !== url.host || next.protocol !== url.protocol || hops >= 3) {
        throw new UpstreamError(502, UPSTREAM.redirectedAway(name, url.host));
      }
      url = next;
      continue;
    }
    return { ...res, url };
  }
}

/** The JSON of a 2xx answer; UpstreamError 404 for 404/410, 502 for any other status or a body that is not JSON. */
export function jsonOf(res: RawResponse & { url: URL }, name: string): unknown {
  const { url } = res;
  if (res.status === 404 || res.status === 410)
    throw new UpstreamError(404, UPSTREAM.noSuchEntry(name, url.host, url.pathname, res.status), {
      httpStatus: res.status,
    });
  if (res.status < 200 || res.status > 299)
    throw new UpstreamError(502, UPSTREAM.badStatus(name, url.host, res.status), { httpStatus: res.status });
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new UpstreamError(502, UPSTREAM.notJson(name, url.host));
  }
}

/**
 * GETs JSON from an allowed host (or through cfg.fetchJson when set). `name` says who the upstream is in
 * error messages ("PyPI"). Throws UpstreamError: 404 for 404/410, 502 for everything else that is not a
 * 2xx JSON answer.
 */
export async function fetchUpstreamJson(
  rawUrl: string,
  cfg: UpstreamConfig,
  name: string,
  options: { headers?: Record<string, string> } = {},
): Promise<unknown> {
  if (cfg.fetchJson) return cfg.fetchJson(rawUrl, name, options);
  return jsonOf(await fetchUpstream(rawUrl, cfg, name, options), name);
}
