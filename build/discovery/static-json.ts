// Static JSON a CDN can serve without the API: each tool's partial contract (what GET /api/v1/tools/{aid}
// answers, without live telemetry) and the default listings.
import type { ToolContract } from '../model/contract.ts';
import { LISTING_NOTE, listingItem, partialContract } from '../model/views.ts';
import type { OutputFile } from './sitemap.ts';

export const STATIC_TOOLS_DIR = 'static/v1/tools';

export function contractFile(tool: ToolContract, baseUrl: string): OutputFile {
  return {
    path: `${STATIC_TOOLS_DIR}/${tool.identity.aid}.json`,
    content: JSON.stringify(partialContract(tool, baseUrl)),
  };
}

/**
 * The default listings, as GET /api/v1/tools and /trending answer them: `listed` holds only the listable
 * tools (views.ts isListable: never unverified or dead ones), already in reliability order.
 */
export function listingFiles(listed: ToolContract[], baseUrl: string): OutputFile[] {
  const top = listed.slice(0, 10).map((t) => listingItem(t, baseUrl));
  const trending = listed.slice(0, 20).map((t) => listingItem(t, baseUrl));
  return [
    {
      path: 'static/v1/tools.json',
      content: JSON.stringify({ query: '', category: '', count: top.length, results: top, note: LISTING_NOTE }),
    },
    { path: 'static/v1/trending.json', content: JSON.stringify({ count: trending.length, results: trending }) },
  ];
}
