// Assembles the h3 app: route groups (one file each under routes/), the static dist/ as the fallback,
// and the single error renderer.
import { H3 } from 'h3';
import { httpError, renderError } from './errors.ts';
import type { AppContext } from './context.ts';
import { healthRoutes } from './routes/health.ts';
import { serveDist } from './static.ts';

export function createApp(ctx: AppContext): H3 {
  const app = new H3({ onError: renderError });
  healthRoutes(app, ctx);
  // Everything no route claims is a file of dist/ or a 404 in the API's error shape.
  app.all('/**', async (event) => {
    const method = event.req.method;
    if (method === 'GET' || method === 'HEAD') {
      const res = await serveDist(event, ctx.config.distDir);
      if (res) return res;
      throw httpError(404, 'Not Found');
    }
    throw httpError(404, 'Not Found');
  });
  return app;
}
