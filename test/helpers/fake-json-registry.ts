// A fake JSON registry on loopback for the importer and translate tests: npm packuments, PyPI JSON, GitHub
// and MCP-registry answers are just paths with JSON bodies. Like the real registries it sends an ETag and
// answers 304 to a matching If-None-Match; a test can script failures for a path (429 with Retry-After, 500)
// and hold a path's requests until it releases them. Every request is logged with its headers and time.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface LoggedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface FakeJsonRegistry {
  url: string;
  requests: LoggedRequest[];
  /** Serves `body` as JSON at `path` (path with its query string, as requested). */
  set(path: string, body: unknown): void;
  /** Answers given, in order, before the path's normal answer. */
  script(path: string, answers: FakeAnswer[]): void;
  /** Answers this path with `answer` every time (e.g. a permanent 500). */
  fail(path: string, answer: FakeAnswer): void;
  /** Requests to the path wait until the returned function is called. */
  hold(path: string): () => void;
  hits(path: string): LoggedRequest[];
  close(): Promise<void>;
}

const etagOf = (text: string) => `"${createHash('sha1').update(text).digest('hex').slice(0, 16)}"`;

export async function startFakeJsonRegistry(): Promise<FakeJsonRegistry> {
  const bodies = new Map<string, string>();
  const scripts = new Map<string, FakeAnswer[]>();
  const failures = new Map<string, FakeAnswer>();
  const holds = new Map<string, Promise<void>>();
  const requests: LoggedRequest[] = [];
  const send = (res: http.ServerResponse, a: FakeAnswer) => {
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  };
  const server = http.createServer(async (req, res) => {
    const path = req.url ?? '';
    requests.push({ path, headers: req.headers, at: Date.now() });
    await holds.get(path);
    const scripted = scripts.get(path)?.shift();
    if (scripted) return send(res, scripted);
    const failure = failures.get(path);
    if (failure) return send(res, failure);
    const text = bodies.get(path);
    if (text === undefined) return send(res, { status: 404, body: { error: 'Not found' } });
    const etag = etagOf(text);
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json', etag });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    set: (path, body) => bodies.set(path, JSON.stringify(body)),
    script: (path, answers) => scripts.set(path, [...answers]),
    fail: (path, answer) => failures.set(path, answer),
    hold(path) {
      let release = () => {};
      holds.set(
        path,
        new Promise<void>((r) => {
          release = () => {
            holds.delete(path);
            r();
          };
        }),
      );
      return release;
    },
    hits: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
