// A Prism mock server (@stoplight/prism-cli, a devDependency) on one source definition, on loopback, with
// request validation on (Prism's default; `-d` dynamic responses are not needed). Started niced: the
// evaluation shares the machine. `send` classifies Prism's answer: a request is rejected when Prism
// reports a request violation (`sl-violations` with an error, or one of its problem+json request errors).
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import http from 'node:http';
import { createServer } from 'node:net';
import type { BuiltRequest } from './request.ts';

const STARTUP_TIMEOUT_MS = 180_000;
const REQUEST_TIMEOUT_MS = 30_000;

// Prism errors about the request itself; its other errors (no example to return, …) concern the mock.
const REQUEST_ERRORS =
  /#(UNPROCESSABLE_ENTITY|UNAUTHORIZED|NO_PATH_MATCHED_ERROR|NO_METHOD_MATCHED_ERROR|INVALID_CONTENT_TYPE|NOT_ACCEPTABLE|NO_SERVER_MATCHED_ERROR|NO_SERVER_CONFIGURATION_PROVIDED_ERROR)\b/;

export interface PrismServer {
  port: number;
  send(request: BuiltRequest): Promise<Verdict>;
  close(): Promise<void>;
}

export interface Verdict {
  accepted: boolean;
  status: number;
  /** Why it was rejected: Prism's error name or the first violation message. */
  reason?: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  return require.resolve('@stoplight/prism-cli/dist/index.js');
}

// Children still running when the evaluation ends (Ctrl-C, a crash) are stopped with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/**
 * `prism mock` without its CLI process: the same three calls its mock command makes
 * (getHttpOperationsFromSpec, prism-http-server's createServer with request validation and security checks,
 * listen), in this process. Starting a Node process and loading Prism's modules for each API costs more
 * CPU than the mock itself; on a loaded machine that decides whether 300 APIs take 20 minutes or two hours.
 */
/**
 * The first violation of the request in Prism's `sl-violations` header, or null. Prism also checks the
 * response it generated itself, and only violations of the request count. With many violations it writes
 * `Too many violations! ` before the list and may cut the list short: then each entry is read by pattern.
 */
export function requestViolation(header: string): string | null {
  type Violation = { severity?: string; message?: string; path?: string[]; location?: string[] };
  const isRequestError = (v: Violation) =>
    String(v.severity).toLowerCase() === 'error' &&
    !/^response\b/i.test(v.message ?? '') &&
    (v.location?.[0] ?? 'request') !== 'response';
  const json = header.slice(Math.max(0, header.indexOf('[')));
  let list: Violation[];
  try {
    list = JSON.parse(json) as Violation[];
  } catch {
    list = [...json.matchAll(/\{[^{}]*"message":"((?:[^"\\]|\\.)*)"[^{}]*\}/g)].map((m) => {
      const entry = m[0];
      return {
        message: m[1],
        severity: /"severity":"([^"]*)"/.exec(entry)?.[1],
        location: /"location":\["([^"]*)"/.exec(entry)?.slice(1),
      };
    });
    if (list.length === 0) return 'violation (unparsable header)';
  }
  const error = list.find(isRequestError);
  if (!error) return null;
  return `violation: ${(error.path ?? error.location ?? []).join('.')} ${error.message ?? ''}`.slice(0, 200);
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** null when the body could not be read whole. */
  text: string | null;
}

/**
 * One request over node:http rather than fetch: Prism copies the response headers a definition declares,
 * Content-Length among them (nowpayments), and fetch then fails the whole exchange although Prism has
 * already answered with its status and headers, which are what says whether the request was accepted.
 * node:http also sends a body on GET, which some definitions require (Swagger conversions).
 */
async function exchange(port: number, request: BuiltRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { ...request.headers };
  let body: Buffer | undefined;
  if (request.body instanceof FormData) {
    // The multipart encoding and its boundary, as fetch would make them.
    const encoded = new Request('http://localhost/', { method: 'POST', body: request.body });
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
  } else if (request.body !== undefined) body = Buffer.from(request.body);
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.url,
        headers,
        timeout: REQUEST_TIMEOUT_MS,
        // Those copied headers can also pair Content-Length with Transfer-Encoding, which the strict parser
        // refuses before it reports the status.
        insecureHTTPParser: true,
      },
      (res) => {
        const parts: Buffer[] = [];
        let settled = false;
        const done = (text: string | null) => {
          if (settled) return;
          settled = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        };
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => done(Buffer.concat(parts).toString('utf8')));
        res.on('error', () => done(null));
        res.on('close', () => done(null)); // closed before its end: what came is not the whole body
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function sendTo(port: number, request: BuiltRequest): Promise<Verdict> {
  const res = await exchange(port, request);
  const header = (name: string) => {
    const v = res.headers[name];
    return Array.isArray(v) ? v.join(', ') : (v ?? '');
  };
  const problem = /problem\+json/.test(header('content-type'));
  const violations = header('sl-violations');
  if (violations) {
    const error = requestViolation(violations);
    if (error) return { accepted: false, status: res.status, reason: error };
  }
  if (res.text === null)
    return problem && res.status >= 400
      ? { accepted: false, status: res.status, reason: `status ${res.status} (unreadable problem body)` }
      : { accepted: true, status: res.status };
  const error = REQUEST_ERRORS.exec(res.text.slice(0, 500));
  if (error && problem) {
    let detail = '';
    try {
      const body = JSON.parse(res.text) as {
        detail?: string;
        validation?: { location?: string[]; message?: string }[];
      };
      const first = body.validation?.[0];
      detail = first ? `${(first.location ?? []).join('.')} ${first.message ?? ''}` : (body.detail ?? '');
    } catch {
      /* the error name is enough */
    }
    return { accepted: false, status: res.status, reason: `${error[1]}: ${detail}`.slice(0, 200) };
  }
  return { accepted: true, status: res.status };
}

export async function startPrismInProcess(definitionFile: string): Promise<PrismServer> {
  const require = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'));
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http') as {
    getHttpOperationsFromSpec(file: string): Promise<unknown[]>;
  };
  const { createServer } = require('@stoplight/prism-http-server') as {
    createServer(
      ops: unknown[],
      opts: unknown,
    ): { listen(port: number, host: string): Promise<string>; close(): Promise<void> };
  };
  const { createLogger } = require('@stoplight/prism-core') as { createLogger(name: string, opts: unknown): unknown };
  const operations = await getHttpOperationsFromSpec(definitionFile);
  if (operations.length === 0) throw new Error('No operations found in the current file.');
  const logger = createLogger('EVAL', { level: 'silent' });
  const server = createServer(operations, {
    cors: false,
    config: {
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false, ignoreExamples: false },
      isProxy: false,
    },
    components: { logger },
  });
  const port = await freePort();
  await server.listen(port, '127.0.0.1');
  return { port, send: (request) => sendTo(port, request), close: () => server.close() };
}

export async function startPrism(definitionFile: string): Promise<PrismServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'nice',
    ['-n', '10', process.execPath, prismBin(), 'mock', '-h', '127.0.0.1', '-p', String(port), definitionFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => fail(new Error(`prism did not start within ${STARTUP_TIMEOUT_MS / 1000} s`)),
      STARTUP_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4000);
      if (/Prism is listening/.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      fail(new Error(`prism exited (${code}): ${seen.split('\n').filter(Boolean).slice(-2).join(' ').slice(0, 300)}`)),
    );
  });
  // Prism logs every request; the output must keep draining or the child blocks.
  child.stdout?.resume();
  child.stderr?.resume();

  return {
    port,
    send: (request) => sendTo(port, request),
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
