// On-the-fly compression of dynamic answers over 1 KB (the `compression` middleware: Accept-Encoding
// negotiation, Vary, compressible types, no-transform), at cheap levels: a search answer is a few KB and
// higher levels cost throughput for little. dist/ files arrive precompressed (Content-Encoding set) and
// pass through untouched.
//
// h3's node adapter writes a whole body as writeHead(), write(body), end(callback), in one tick, without a
// Content-Length, so the middleware could not apply its 1 KB threshold (it decides at writeHead). The
// adapter below holds writeHead and the first chunk back until end() or the next turn of the event loop:
// when end() comes first, the length is known and set; a longer stream is sent as it comes.
import type http from 'node:http';
import zlib from 'node:zlib';
import compression from 'compression';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

const middleware = compression({
  threshold: 1024,
  level: 1,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
}) as unknown as Handler;

type Head = [number, ...unknown[]];

/** Sets Content-Length in writeHead's headers (an object or a flat [name, value, …] list) unless present. */
function withLength(head: Head, length: number): Head {
  const headers = head[head.length - 1];
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'content-length') return head;
    return [...head.slice(0, -1), [...headers, 'content-length', String(length)]] as unknown as Head;
  }
  if (headers && typeof headers === 'object') {
    if (Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) return head;
    return [...head.slice(0, -1), { ...headers, 'content-length': String(length) }] as unknown as Head;
  }
  return [...head, { 'content-length': String(length) }] as unknown as Head;
}

export function compress(req: http.IncomingMessage, res: http.ServerResponse, handle: () => void): void {
  middleware(req, res, () => {
    const inner = { writeHead: res.writeHead, write: res.write, end: res.end };
    let head: Head | null = null;
    let body: Uint8Array | string | null = null;
    let flushScheduled = false;
    const flushHead = () => {
      if (!head) return;
      const h = head;
      head = null;
      (inner.writeHead as (...a: unknown[]) => void).apply(res, h);
      if (body !== null) {
        const b = body;
        body = null;
        (inner.write as (c: unknown) => boolean).call(res, b);
      }
    };
    res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
      head = args as Head;
      return this;
    } as typeof res.writeHead;
    res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
      if (head && body === null && !flushScheduled && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
        body = chunk;
        flushScheduled = true;
        // A web Response body arrives as a stream: its one chunk, then end() once the next read resolves
        // (promise jobs run before setImmediate). A longer stream is sent as it comes from its second chunk.
        setImmediate(flushHead);
        return true;
      }
      flushHead();
      return (inner.write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: http.ServerResponse, ...args: unknown[]) {
      // The adapter ends with end(callback); the middleware takes a first argument as a chunk.
      if (typeof args[0] === 'function') {
        this.once('finish', args[0] as () => void);
        args = [];
      }
      if (head) {
        const length = body === null ? 0 : Buffer.byteLength(body);
        if (args.length === 0) head = withLength(head, length);
        flushHead();
      }
      return (inner.end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof res.end;
    handle();
  });
}
