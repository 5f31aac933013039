// The one place an error becomes an HTTP answer, in the shapes clients of the original FastAPI service
// parse: {"detail": "..."} or, for 422, {"detail": [...]}. Domain errors (api/services/errors.ts) map to a
// status here, in one table; HTTP-only problems (405, 413, 415 …) are thrown by the h3 glue as HTTPError.
import { type H3Event, HTTPError } from 'h3';
import { HTTP } from '../messages.ts';
import { DomainError, type Problem, type ValidationItem } from '../services/errors.ts';

interface ErrorData {
  detail: string | ValidationItem[] | Record<string, unknown>;
}

/** For the HTTP glue only (methods, bodies, paths); services throw DomainError. */
export function httpError(status: number, detail: ErrorData['detail'], headers?: Record<string, string>): HTTPError {
  return new HTTPError({ status, message: typeof detail === 'string' ? detail : 'error', data: { detail }, headers });
}

export const STATUS_OF_PROBLEM: Record<Problem, number> = {
  invalid: 422,
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  upstream: 502,
  unsupported: 501,
  disabled: 503,
  unauthenticated: 401,
  forbidden: 403,
};

/** The status, detail and headers of a domain error. */
export function answerOf(error: DomainError): { status: number; detail: ErrorData['detail']; headers: Headers } {
  const headers = new Headers();
  if (error.retryAfterS !== undefined) headers.set('retry-after', String(error.retryAfterS));
  return { status: STATUS_OF_PROBLEM[error.problem], detail: error.detail, headers };
}

/** h3's onError hook: the only place an error becomes a response. Never leaks stacks or internals. */
export function renderError(error: HTTPError, event: H3Event): Response {
  const domain = error.cause instanceof DomainError ? error.cause : null;
  let status: number;
  let detail: ErrorData['detail'];
  let own: Headers | undefined;
  if (domain) ({ status, detail, headers: own } = answerOf(domain));
  else {
    status = error.status >= 400 && error.status <= 599 ? error.status : 500;
    own = error.headers;
    const data = error.data as ErrorData | undefined;
    if (data && 'detail' in (data as object)) detail = data.detail;
    else if (status >= 500) {
      if (error.unhandled || status === 500)
        console.error(`[${event.req.method} ${event.url.pathname}]`, error.cause ?? error);
      detail = status === 500 ? HTTP.serverError : (HTTP.defaults[status] ?? 'Server Error');
    } else detail = HTTP.defaults[status] ?? 'Error';
  }
  // Headers the middleware staged for errors (security, CORS) first; the error's own (allow, retry-after) win.
  const headers = new Headers(event.res.errHeaders);
  for (const [k, v] of new Headers(own)) headers.set(k, v);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ detail }), { status, headers });
}
