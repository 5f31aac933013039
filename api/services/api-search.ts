// GET /api/v1/services/search (and MCP search_apis): the APIs that match an intent, each with the few
// operations of it that match best, so "send an sms" answers with the operation to call, not only the API.
import type { CatalogStore } from '../../build/catalog/catalog-store.ts';
import type { Config } from '../../build/config.ts';
import { type ApiCatalog, apiListingItem } from './apis.ts';
import { bestOperations } from './operations.ts';

const SERVICES_LIMIT = 10;

export async function serviceSearch(
  ctx: { apis: ApiCatalog; store: Pick<CatalogStore, 'readOperations'>; config: Pick<Config, 'baseUrl'> },
  q: string,
) {
  const apis = ctx.apis.search(q, SERVICES_LIMIT);
  const operations = await Promise.all(apis.map((r) => bestOperations(ctx, r.service_name, q)));
  const results = apis.map((r, i) => ({ ...apiListingItem(r, ctx.config.baseUrl), operations: operations[i] ?? [] }));
  return { query: q, count: results.length, results };
}
