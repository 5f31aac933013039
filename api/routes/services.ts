// GET /api/v1/services/search (web-API manifests for an intent, each with its best operations),
// GET /api/v1/services/{service_name}/mai-api.json (one compiled manifest),
// GET /api/v1/services/{service_name}/operations?q=&limit=&offset= (its operation recipes, ranked or all) and
// GET /api/v1/services/{service_name}/operations/{operation_id} (one recipe). The work is in services/.
import { getRouterParam, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { intQuery, textQuery } from '../http/query.ts';
import { serviceSearch } from '../services/api-search.ts';
import { manifestByName } from '../services/apis.ts';
import { OPERATIONS_PAGE, operationById, operationList } from '../services/operations.ts';

const name = (event: H3Event) => getRouterParam(event, 'service_name') ?? '';

export function serviceRoutes(app: H3, ctx: AppContext) {
  app.get('/api/v1/services/search', (event) => serviceSearch(ctx, textQuery(event, 'q', { required: true })));

  app.get('/api/v1/services/:service_name/mai-api.json', (event) => manifestByName(ctx, name(event)));

  app.get('/api/v1/services/:service_name/operations', (event) => {
    const q = textQuery(event, 'q', { required: false });
    const limit = intQuery(event, 'limit', { minimum: 1, maximum: 200, default: OPERATIONS_PAGE });
    const offset = intQuery(event, 'offset', { minimum: 0, maximum: 1_000_000, default: 0 });
    return operationList(ctx, name(event), q, limit, offset);
  });

  app.get('/api/v1/services/:service_name/operations/:operation_id', (event) =>
    operationById(ctx, name(event), getRouterParam(event, 'operation_id') ?? ''),
  );
}
