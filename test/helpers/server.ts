// A real API server on a loopback port over a temporary copy of test/fixtures/catalog and a temporary
// DATA_DIR; raw HTTP for requests fetch would normalise (dot segments, odd paths, chunked bodies).
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { ToolContract } from '../../build/model/contract.ts';
import { loadConfig } from '../../build/config.ts';
import { type RunningServer, type ServerOptions, startServer } from '../../api/server.ts';
import { createLogger } from '../../api/ops/logger.ts';

export const BASE_URL = 'https://catalog.example';
export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/catalog');

export interface TestServerOptions extends ServerOptions {
  /** Copy the fixture API manifests into the catalog (default true). */
  apis?: boolean;
  /** Extra contracts written next to the fixtures. */
  extraTools?: ToolContract[];
  /** Reuse this DATA_DIR instead of a fresh one. */
  dataDir?: string;
}

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  url: string;
  root: string;
  catalogDir: string;
  dataDir: string;
  distDir: string;
  running: RunningServer;
  fetch(p: string, init?: RequestInit): Promise<Response>;
  json<T = any>(p: string, init?: RequestInit): Promise<JsonResponse<T>>;
  /** POST with a JSON body (`undefined` = no body at all). */
  post<T = any>(p: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  /** Stops the server and starts a new one on the same folders (a process restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
  /** Closes and removes every temporary folder. */
  cleanup(): Promise<void>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-api-'));
  const catalogDir = path.join(root, 'catalog');
  await fsp.cp(path.join(FIXTURES, 'tools'), path.join(catalogDir, 'tools'), { recursive: true });
  if (options.apis !== false)
    await fsp.cp(path.join(FIXTURES, 'apis'), path.join(catalogDir, 'apis'), { recursive: true });
  for (const c of options.extraTools ?? []) {
    await fsp.writeFile(path.join(catalogDir, 'tools', `${c.identity.aid}.json`), JSON.stringify(c, null, 2));
  }
  const dataDir = options.dataDir ?? path.join(root, 'data');
  const distDir = path.join(root, 'dist');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL,
    CATALOG_DIR: catalogDir,
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
  });
  const { apis: _apis, extraTools: _extra, dataDir: _dataDir, ...given } = options;
  const serverOptions: ServerOptions = {
    log: createLogger(process.env.TCC_TEST_VERBOSE ? 'info' : 'silent'),
    shutdownGraceMs: 2_000,
    ...given,
    telemetryRatePerMin: options.telemetryRatePerMin ?? 0,
    trustProxy: options.trustProxy ?? false,
  };
  let running = await startServer(config, serverOptions);
  let closed = false;

  const t: TestServer = {
    get url() {
      return running.url;
    },
    root,
    catalogDir,
    dataDir,
    distDir,
    get running() {
      return running;
    },
    fetch: (p, init) => fetch(`${running.url}${p}`, init),
    async json(p, init) {
      const res = await fetch(`${running.url}${p}`, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    post(p, body, headers = {}) {
      const init: RequestInit = {
        method: 'POST',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      return t.json(p, init);
    },
    async restart() {
      await running.close();
      running = await startServer(config, serverOptions);
      closed = false;
    },
    async close() {
      if (closed) return;
      closed = true;
      await running.close();
    },
    async cleanup() {
      await t.close();
      await fsp.rm(root, { recursive: true, force: true });
      if (options.dataDir) await fsp.rm(options.dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request with the path sent exactly as given (no URL normalisation); body chunks are streamed. */
export function rawRequest(
  url: string,
  method: string,
  rawPath: string,
  options: { headers?: Record<string, string>; chunks?: (string | Buffer)[] } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ hostname, port, method, path: rawPath, headers: options.headers }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }),
      );
      res.on('error', reject);
    });
    // The server may answer (413) and close before the whole body is sent: only an error before any answer fails.
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    for (const c of options.chunks ?? []) req.write(c);
    req.end();
  });
}

/** All fixture contracts, by aid. */
export async function fixtureTools(): Promise<Map<string, ToolContract>> {
  const dir = path.join(FIXTURES, 'tools');
  const out = new Map<string, ToolContract>();
  for (const f of await fsp.readdir(dir)) {
    const c = JSON.parse(await fsp.readFile(path.join(dir, f), 'utf8')) as ToolContract;
    out.set(c.identity.aid, c);
  }
  return out;
}

/** One MCP `tools/call` over the server's HTTP transport (JSON response); the JSON-RPC `result`. */
export async function mcpToolCall(
  t: TestServer,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; content: { text: string }[] }> {
  const res = await t.post(
    '/mcp',
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    { accept: 'application/json, text/event-stream' },
  );
  if (res.status !== 200) throw new Error(`MCP tools/call ${name}: HTTP ${res.status}`);
  return res.body.result;
}
