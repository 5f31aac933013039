// GET /api/v1/search: one query over both catalogs, tools first, at most 5 of each.
import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { textQuery } from '../http/query.ts';
import { apiListingItem } from '../services/apis.ts';
import { callerOf } from '../http/caller.ts';
import { listingItems, noteSearch } from '../services/tools.ts';

export const PER_CATALOG = 5;

export function searchRoutes(app: H3, ctx: AppContext) {
  app.get('/api/v1/search', async (event) => {
    const q = textQuery(event, 'q', { required: true });
    const found = ctx.toolSearch.search(q, { limit: PER_CATALOG });
    const [items] = await Promise.all([listingItems(ctx, found), noteSearch(ctx, q, found, callerOf(event, ctx))]);
    const tools = items.map((t) => ({ type: 'tool' as const, ...t }));
    const apis = ctx.apis.search(q, PER_CATALOG).map((r) => apiListingItem(r, ctx.config.baseUrl));
    return {
      query: q,
      total: tools.length + apis.length,
      tools: tools.length,
      apis: apis.length,
      results: [...tools, ...apis],
    };
  });
}
