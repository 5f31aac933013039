// One error type (h3's HTTPError) thrown where the problem is known, rendered here in one place into the
// shapes clients of the original FastAPI service parse: {"detail": "..."} or, for 422, {"detail": [...]}.
import { HTTPError, type H3Event } from 'h3';

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

interface ErrorData {
  detail: string | ValidationItem[] | Record<string, unknown>;
}

export function httpError(status: number, detail: ErrorData['detail'], headers?: Record<string, string>): HTTPError {
  return new HTTPError({ status, message: typeof detail === 'string' ? detail : 'error', data: { detail }, headers });
}

export function validationError(items: ValidationItem[]): HTTPError {
  return httpError(422, items);
}

/** The 404 of an aid the catalog does not hold (lookups and writes alike). */
export const toolNotFound = (aid: string): HTTPError => httpError(404, `Tool '${aid.slice(0, 140)}' not found in catalog`);

/** `/identity/tags/0` → ['identity', 'tags', 0] (JSON Pointer unescaped; array indexes as numbers). */
export function pointerSegments(pointer: string): (string | number)[] {
  return pointer.split('/').slice(1).filter((s) => s !== '')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d{0,8})$/.test(s) ? Number(s) : s));
}

/** One 422 item: `invalid('query', 'limit', 'must be an integer between 1 and 20', 'int_parsing')`. */
export function invalid(where: 'query' | 'path' | 'body' | 'header', field: string | (string | number)[] | null, msg: string, type = 'value_error'): HTTPError {
  const loc = field === null ? [where] : [where, ...(Array.isArray(field) ? field : [field])];
  return validationError([{ loc, msg, type }]);
}

const DEFAULT_DETAIL: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  413: 'Request body too large', 415: 'Unsupported Media Type', 429: 'Too Many Requests', 503: 'Service Unavailable',
};

/** h3's onError hook: the only place an error becomes a response. Never leaks stacks or internals. */
export function renderError(error: HTTPError, event: H3Event): Response {
  const status = error.status >= 400 && error.status <= 599 ? error.status : 500;
  const data = error.data as ErrorData | undefined;
  let detail: ErrorData['detail'];
  if (data && 'detail' in (data as object)) detail = data.detail;
  else if (status >= 500) {
    if (error.unhandled || status === 500) console.error(`[${event.req.method} ${event.url.pathname}]`, error.cause ?? error);
    detail = status === 500 ? 'Internal Server Error' : DEFAULT_DETAIL[status] ?? 'Server Error';
  } else detail = DEFAULT_DETAIL[status] ?? 'Error';
  // Headers the middleware staged for errors (security, CORS) first; the error's own (allow, retry-after) win.
  const headers = new Headers(event.res.errHeaders);
  for (const [k, v] of new Headers(error.headers)) headers.set(k, v);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ detail }), { status, headers });
}
