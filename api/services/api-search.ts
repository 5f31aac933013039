// GET /api/v1/services/search (and MCP search_apis): the APIs that match an intent, each with the few
// operations of it that match best, so "send an sms" answers with the operation to call, not only the API.
import type { Config } from '../../build/config.ts';
import { type ApiCatalog, apiListingItem } from './apis.ts';
import { bestOperations } from './operations.ts';

const SERVICES_LIMIT = 10;

export function serviceSearch(ctx: { apis: ApiCatalog; config: Pick<Config, 'baseUrl' | 'catalogDir'> }, q: string) {
  const results = ctx.apis.search(q, SERVICES_LIMIT).map((r) => ({
    ...apiListingItem(r, ctx.config.baseUrl),
    operations: bestOperations(ctx, r.service_name, q),
  }));
  return { query: q, count: results.length, results };
}
