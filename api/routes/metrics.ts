// GET /metrics: Prometheus text format for the operator's scraper. With METRICS_TOKEN set, only
// `Authorization: Bearer <token>` gets it (compared in constant time); never proxied by the CDN files.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3 } from 'h3';
import { httpError } from '../http/errors.ts';
import type { AppContext } from '../context.ts';
import { HTTP } from '../messages.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function metricsRoutes(app: H3, ctx: AppContext) {
  const token = ctx.config.metricsToken;
  const expected = token ? digest(`Bearer ${token}`) : null;
  app.get('/metrics', async (event) => {
    if (expected) {
      const given = event.req.headers.get('authorization') ?? '';
      if (!timingSafeEqual(digest(given), expected)) {
        throw httpError(401, HTTP.metricsToken, { 'www-authenticate': 'Bearer' });
      }
    }
    const body = await ctx.metrics.registry.metrics();
    return new Response(body, {
      headers: { 'content-type': ctx.metrics.registry.contentType, 'cache-control': 'no-store' },
    });
  });
}
