// Reads a JSON request body with a size limit enforced while streaming (a 413 never buffers the whole
// body), a content-type check (415) and parse errors as 422 pointing at the body. A client that hangs up
// mid-body is the client's doing: a 400 (which nobody receives), never a logged 500.
import type { H3Event } from 'h3';
import { HTTP, VALIDATION } from '../messages.ts';
import { invalid } from '../services/errors.ts';
import { httpError } from './errors.ts';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface ReadBodyOptions {
  limit?: number;
}

const tooLarge = (limit: number) => httpError(413, HTTP.bodyTooLarge(limit));

async function readLimited(event: H3Event, limit: number): Promise<string> {
  const declared = Number(event.req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const body = event.req.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // Node errors the stream with "aborted" (ECONNRESET) when the connection closes before the body ends.
      throw httpError(400, HTTP.bodyIncomplete);
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `undefined` when there is no body; otherwise the parsed JSON (which may be `null`). */
export async function readJsonBody(event: H3Event, options: ReadBodyOptions = {}): Promise<unknown> {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const text = await readLimited(event, limit);
  if (text.trim() === '') return undefined;
  const type = event.req.headers.get('content-type');
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw httpError(415, HTTP.unsupportedMediaType(type.split(';')[0] ?? ''));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid('body', null, VALIDATION.jsonDecode((error as Error).message), 'json_invalid');
  }
}
