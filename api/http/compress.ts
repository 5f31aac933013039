// On-the-fly compression of dynamic answers over 1 KB, at cheap levels (brotli 1, gzip 1): a search answer
// is a few KB, and higher levels cost throughput for little. dist/ files arrive precompressed
// (Content-Encoding set) and pass through untouched.
//
// h3's node adapter writes a whole answer as writeHead(), write(body), end(callback) in one tick. The
// wrapper below holds writeHead and the body back until end(): the body is then known whole, so it is
// compressed in one synchronous call and sent with its length. A one-shot call costs tens of
// microseconds for a search answer; a zlib stream per answer (the `compression` middleware) cost
// about a quarter of the server's CPU under load (measured with --cpu-prof on the search benchmark).
// An answer that is still being written on the next turn of the event loop (a stream, e.g. MCP's
// event stream) goes out as it comes, uncompressed.
import type http from 'node:http';
import zlib from 'node:zlib';
import compressible from 'compressible';
import { acceptedCodings, type Coding } from './accept-encoding.ts';

export const COMPRESS_MIN_BYTES = 1024;

const ENCODERS: Readonly<Record<Coding, (body: Buffer) => Buffer>> = {
  br: (body) =>
    zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => zlib.gzipSync(body, { level: 1 }),
};

/** writeHead's headers as one list of [name, value] pairs, whatever form the caller used. */
type Pairs = [string, string | string[]][];

function headerPairs(headers: unknown): Pairs {
  if (Array.isArray(headers)) {
    const pairs: Pairs = [];
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), headers[i + 1] as string]);
    return pairs;
  }
  if (headers && typeof headers === 'object')
    return Object.entries(headers as Record<string, string | string[]>).filter(([, v]) => v !== undefined);
  return [];
}

function header(res: http.ServerResponse, pairs: Pairs, name: string): string | undefined {
  const found = pairs.find(([k]) => k.toLowerCase() === name);
  const value = found ? found[1] : res.getHeader(name);
  return value === undefined ? undefined : String(value);
}

function withoutHeader(pairs: Pairs, name: string): Pairs {
  return pairs.filter(([k]) => k.toLowerCase() !== name);
}

/** Adds Accept-Encoding to Vary (an answer that depends on it must say so, compressed or not). */
function withVary(res: http.ServerResponse, pairs: Pairs): Pairs {
  const vary = header(res, pairs, 'vary');
  if (vary === '*' || (vary && /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary))) return pairs;
  res.removeHeader('vary');
  return [...withoutHeader(pairs, 'vary'), ['Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding']];
}

/** Node's raw header list; a repeated header (Set-Cookie) keeps each value. */
function flatHeaders(pairs: Pairs): string[] {
  const flat: string[] = [];
  for (const [name, value] of pairs) for (const v of Array.isArray(value) ? value : [value]) flat.push(name, v);
  return flat;
}

function toBuffer(chunk: unknown): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
}

/** Could this answer be compressed at all (body, type, no Content-Encoding yet, no `no-transform`)? */
function compressibleAnswer(req: http.IncomingMessage, res: http.ServerResponse, status: number, pairs: Pairs) {
  if (req.method === 'HEAD' || status === 204 || status === 304 || status < 200) return false;
  if (header(res, pairs, 'content-encoding')) return false;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(header(res, pairs, 'cache-control') ?? '')) return false;
  const type = header(res, pairs, 'content-type');
  return Boolean(type && compressible(type));
}

export function compress(req: http.IncomingMessage, res: http.ServerResponse, handle: () => void): void {
  const coding = acceptedCodings(req.headers['accept-encoding'])[0];
  // Nothing to negotiate (no coding accepted, or HEAD): the answer goes out as the handler writes it. A
  // cache that stores it without Vary can only ever hand out this plain form, which every client reads.
  if (!coding || req.method === 'HEAD') {
    handle();
    return;
  }
  const inner = { writeHead: res.writeHead, write: res.write, end: res.end };
  /** writeHead's arguments, held until the body is known: [status, statusText?] and the headers. */
  let head: { status: number; text: unknown[]; pairs: Pairs } | null = null;
  const chunks: Buffer[] = [];
  let streaming = false;

  const send = (h: { status: number; text: unknown[] }, pairs: Pairs) =>
    (inner.writeHead as (...a: unknown[]) => void).call(res, h.status, ...h.text, flatHeaders(pairs));
  /** The answer goes on as a stream: head and body so far as they are, the rest as it comes. */
  const goStreaming = () => {
    if (!head || streaming) return;
    streaming = true;
    const h = head;
    head = null;
    send(h, compressibleAnswer(req, res, h.status, h.pairs) ? withVary(res, h.pairs) : h.pairs);
    for (const c of chunks.splice(0)) (inner.write as (c: unknown) => boolean).call(res, c);
  };

  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    const last = rest[rest.length - 1];
    const hasHeaders = typeof last === 'object' && last !== null;
    head = { status, text: hasHeaders ? rest.slice(0, -1) : rest, pairs: hasHeaders ? headerPairs(last) : [] };
    // A web Response body arrives as a stream: its one chunk, then end() once the next read resolves
    // (promise jobs run before setImmediate). Anything not ended by then is a real stream.
    setImmediate(goStreaming);
    return this;
  } as typeof res.writeHead;

  res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (head && !streaming && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
      chunks.push(toBuffer(chunk));
      return true;
    }
    goStreaming();
    return (inner.write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;

  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    // The adapter ends with end(callback).
    if (typeof args[0] === 'function') {
      this.once('finish', args[0] as () => void);
      args = [];
    }
    if (!head) return (inner.end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    if (args[0] !== undefined && args[0] !== null && typeof args[0] !== 'function') chunks.push(toBuffer(args[0]));
    const { status, pairs } = head;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    let out = body;
    let sent = pairs;
    if (compressibleAnswer(req, res, status, pairs)) {
      sent = withVary(res, pairs);
      if (coding && body.length >= COMPRESS_MIN_BYTES) {
        out = ENCODERS[coding](body);
        sent = [...withoutHeader(sent, 'content-length'), ['Content-Encoding', coding]];
        res.removeHeader('content-length');
      }
    }
    if (req.method !== 'HEAD' && (header(res, sent, 'content-length') === undefined || out !== body))
      sent = [...withoutHeader(sent, 'content-length'), ['Content-Length', String(out.length)]];
    send(head, sent);
    head = null;
    return (inner.end as (...a: unknown[]) => http.ServerResponse).call(this, req.method === 'HEAD' ? undefined : out);
  } as typeof res.end;

  handle();
}
