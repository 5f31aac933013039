// GET /api/v1/services/search (web-API manifests for an intent) and
// GET /api/v1/services/{service_name}/mai-api.json (one compiled manifest); the work is in services/apis.ts.
import { getRouterParam, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { textQuery } from '../http/query.ts';
import { manifestByName, serviceSearch } from '../services/apis.ts';

export function serviceRoutes(app: H3, ctx: AppContext) {
  app.get('/api/v1/services/search', (event) => serviceSearch(ctx, textQuery(event, 'q', { required: true })));

  app.get('/api/v1/services/:service_name/mai-api.json', (event) =>
    manifestByName(ctx, getRouterParam(event, 'service_name') ?? ''),
  );
}
