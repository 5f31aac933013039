// Assembles the h3 app: route groups (one file each under routes/), the static dist fallback,
// 405 for known paths with a wrong method, and the single error renderer.
import { H3, type H3Event } from 'h3';
import { httpError, renderError } from './http/errors.ts';
import { HTTP } from './messages.ts';
import type { AppContext } from './context.ts';
import { adminRoutes } from './routes/admin.ts';
import { adminApiRoutes } from './routes/admin-apis.ts';
import { adminVerifyRoutes } from './routes/admin-verify.ts';
import { cors } from './http/cors.ts';
import { agentRoutes } from './routes/agent.ts';
import { contributeRoutes } from './routes/contribute.ts';
import { healthRoutes } from './routes/health.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { searchRoutes } from './routes/search.ts';
import { serviceRoutes } from './routes/services.ts';
import { toolRoutes } from './routes/tools.ts';
import { ingestRoutes } from './routes/ingest.ts';
import { translateRoutes } from './routes/translate.ts';
import { requestGuard } from './http/request-guard.ts';
import { securityHeaders } from './http/security-headers.ts';
import { serveDist } from './http/static.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { subregistryRoutes } from './routes/subregistry.ts';
import { conditionalGet } from './http/conditional-get.ts';
import { routePatternMiddleware } from './ops/request-observer.ts';

interface MethodRoute {
  method: string;
  route: string;
  /** The pattern split once (`/api/v1/tools/:aid` → ['api', 'v1', 'tools', ':aid']). */
  segments: string[];
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** Does a split h3 route pattern (`/api/v1/tools/:aid`, `/x/**`) match these path segments? */
function patternMatches(p: readonly string[], s: readonly string[]): boolean {
  for (let i = 0; i < p.length; i++) {
    const seg = p[i] as string;
    if (seg === '**') return true;
    if (i >= s.length) return false;
    if (seg !== '*' && !seg.startsWith(':') && seg !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * Methods the registered routes accept for a path ([] for an unknown path), over the routes registered
 * when this is called: call it once every route group is in, and ask the answer per request.
 */
function methodsLookup(app: H3): (pathname: string) => string[] {
  const routes: MethodRoute[] = app['~routes']
    .filter((r) => r.method && r.route && r.route !== '/**')
    .map((r) => ({ method: r.method as string, route: r.route as string, segments: segmentsOf(r.route as string) }));
  return (pathname) => {
    const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const s = segmentsOf(path);
    const matching = routes.filter((r) => patternMatches(r.segments, s));
    // Like the router: a static path hides the parameter routes it also matches.
    const exact = matching.filter((r) => r.route === path);
    const methods = new Set<string>();
    for (const r of exact.length ? exact : matching) methods.add(r.method);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods];
  };
}

async function headAsGet(app: H3, event: H3Event): Promise<Response> {
  const res = await app.fetch(new Request(event.req.url, { method: 'GET', headers: event.req.headers }));
  return new Response(null, { status: res.status, headers: res.headers });
}

export function createApp(ctx: AppContext): H3 {
  // Malformed escapes (`/%ZZ`) reach the request guard, which refuses them with the security headers set.
  // silent: renderError logs what is unexpected; domain errors are answers, not incidents.
  const app = new H3({ onError: renderError, allowMalformedURL: true, silent: true });
  // Outermost first: the security headers wrap everything, CORS answers included.
  app.use(securityHeaders());
  app.use(cors());
  app.use(requestGuard());
  app.use(routePatternMiddleware());
  app.use(conditionalGet());
  healthRoutes(app, ctx);
  toolRoutes(app, ctx);
  searchRoutes(app, ctx);
  serviceRoutes(app, ctx);
  agentRoutes(app, ctx);
  openApiRoutes(app, ctx);
  mcpRoutes(app, ctx);
  ingestRoutes(app, ctx);
  adminRoutes(app, ctx);
  adminApiRoutes(app, ctx);
  adminVerifyRoutes(app, ctx);
  translateRoutes(app, ctx);
  contributeRoutes(app, ctx);
  metricsRoutes(app, ctx);
  subregistryRoutes(app, ctx);
  // Register new route groups above this line: the 405 fallbacks below are derived from them.
  const allowedMethods = methodsLookup(app);

  const wrongMethod = (event: H3Event, allowed: string[]) => {
    // h3 routes HEAD to GET only when nothing else matches, and the fallbacks below always match.
    if (event.req.method === 'HEAD' && allowed.includes('GET')) return headAsGet(app, event);
    throw httpError(405, HTTP.methodNotAllowed, { allow: allowed.join(', ') });
  };
  // A static path outranks a parameter in the router: without this, POST /api/v1/tools/trending would
  // reach POST /api/v1/tools/:aid and answer "Tool 'trending' not found" instead of 405.
  const statics = new Set(
    app['~routes'].filter((r) => r.method && r.route && !/[:*]/.test(r.route)).map((r) => r.route as string),
  );
  for (const route of statics) {
    const allowed = allowedMethods(route);
    app.all(route, (event) => wrongMethod(event, allowed));
  }

  // Everything no route claims: a wrong method on a known path (405), else a file of dist/ or a 404.
  app.all('/**', async (event) => {
    const method = event.req.method;
    const allowed = allowedMethods(event.url.pathname);
    if (allowed.length > 0) return wrongMethod(event, allowed);
    if (method === 'GET' || method === 'HEAD') {
      const res = await serveDist(event, ctx.config.distDir);
      if (res) return res;
      // Browsers ask for /favicon.ico on every document (JSON included); the site has no icon, and a
      // 404 there shows as an error in every console.
      if (event.url.pathname === '/favicon.ico')
        return new Response(null, { status: 204, headers: { 'cache-control': 'public, max-age=86400' } });
      throw httpError(404, HTTP.notFound);
    }
    throw httpError(404, HTTP.notFound);
  });
  return app;
}
