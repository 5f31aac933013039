// Assembles the h3 app: route groups (one file each under routes/), the static dist fallback,
// 405 for known paths with a wrong method, and the single error renderer.
import { H3, type H3Event } from 'h3';
import { httpError, renderError } from './errors.ts';
import type { AppContext } from './context.ts';
import { agentRoutes } from './routes/agent.ts';
import { healthRoutes } from './routes/health.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { searchRoutes } from './routes/search.ts';
import { serviceRoutes } from './routes/services.ts';
import { toolRoutes } from './routes/tools.ts';
import { serveDist } from './static.ts';

/** Does an h3 route pattern (`/api/v1/tools/:aid`, `/x/**`) match this path? */
function patternMatches(pattern: string, pathname: string): boolean {
  const p = pattern.split('/').filter(Boolean);
  const s = pathname.split('/').filter(Boolean);
  for (let i = 0; i < p.length; i++) {
    const seg = p[i] as string;
    if (seg === '**') return true;
    if (i >= s.length) return false;
    if (seg !== '*' && !seg.startsWith(':') && seg !== s[i]) return false;
  }
  return p.length === s.length;
}

/** Methods the registered routes accept for this path ([] for an unknown path). */
function allowedMethods(app: H3, pathname: string): string[] {
  const methods = new Set<string>();
  for (const r of app['~routes']) {
    if (r.method && r.route && r.route !== '/**' && patternMatches(r.route, pathname)) methods.add(r.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}

async function headAsGet(app: H3, event: H3Event): Promise<Response> {
  const res = await app.fetch(new Request(event.req.url, { method: 'GET', headers: event.req.headers }));
  return new Response(null, { status: res.status, headers: res.headers });
}

export function createApp(ctx: AppContext): H3 {
  const app = new H3({ onError: renderError });
  healthRoutes(app, ctx);
  toolRoutes(app, ctx);
  searchRoutes(app, ctx);
  serviceRoutes(app, ctx);
  agentRoutes(app, ctx);
  openApiRoutes(app, ctx);
  // Everything no route claims: a wrong method on a known path (405), else a file of dist/ or a 404.
  app.all('/**', async (event) => {
    const method = event.req.method;
    const allowed = allowedMethods(app, event.url.pathname);
    if (allowed.length > 0) {
      // h3 routes HEAD to GET only when nothing else matches, and this catch-all always matches.
      if (method === 'HEAD' && allowed.includes('GET')) return headAsGet(app, event);
      throw httpError(405, 'Method Not Allowed', { allow: allowed.join(', ') });
    }
    if (method === 'GET' || method === 'HEAD') {
      const res = await serveDist(event, ctx.config.distDir);
      if (res) return res;
      throw httpError(404, 'Not Found');
    }
    throw httpError(404, 'Not Found');
  });
  return app;
}
