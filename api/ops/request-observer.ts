// Per request, at the node:http layer (so the status and timing are those of the bytes sent, errors and
// static files included): an X-Request-Id on the answer, one metrics sample and one log line. The route
// pattern comes from h3's router through routePatternMiddleware(); a client address is never logged.
import type http from 'node:http';
import type { Middleware } from 'h3';
import type { Logger } from './logger.ts';
import { requestIdOf } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { operatorEvent } from './operator-events.ts';

const ROUTE = Symbol('tcc.route');
type Tagged = http.IncomingMessage & { [ROUTE]?: string };

/** h3 middleware: notes the matched route pattern (`/api/v1/tools/:aid`) on the node request. */
export function routePatternMiddleware(): Middleware {
  return (event, next) => {
    const req = (event.runtime?.node?.req ?? null) as Tagged | null;
    const route = (event.context.matchedRoute as { route?: string } | undefined)?.route;
    if (req && route) req[ROUTE] = route;
    return next();
  };
}

/** The label for a request: its route pattern; requests no route claimed (dist files, 404s) share one. */
const routeOf = (req: Tagged) => (req[ROUTE] && req[ROUTE] !== '/**' ? req[ROUTE] : 'static');

export function observeRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  log: Logger,
  metrics: Metrics,
): void {
  const started = process.hrtime.bigint();
  const id = requestIdOf(req.headers['x-request-id']);
  res.setHeader('x-request-id', id);
  res.once('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = routeOf(req as Tagged);
    const method = req.method ?? 'GET';
    metrics.request(route, method, res.statusCode, seconds);
    // The path without its query: queries are what users typed, and may hold anything.
    const pathOnly = (req.url ?? '').split('?', 1)[0];
    const fields = { req_id: id, method, route, path: pathOnly, status: res.statusCode };
    log.info({ ...fields, ms: Math.round(seconds * 1e4) / 10 }, 'request');
    const event = operatorEvent(method, route, res.statusCode);
    if (event) log[event.level](fields, event.msg);
  });
}
