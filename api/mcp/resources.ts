// MCP resources: each listable contract as catalog://tools/{aid} (partial form, the action stays behind the
// tax gate) and each API manifest as catalog://apis/{service_name}. resources/list is paginated, because the
// catalog may hold 100,000 tools; the templates let a client read any aid without listing.
import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolContract } from '../../build/model/contract.ts';
import type { Snapshot } from '../../build/catalog/snapshot.ts';
import type { AppContext } from '../context.ts';
import type { ApiCatalog, ApiRecord } from '../services/apis.ts';
import { type Caller, lookUp, toolByAid } from '../services/tools.ts';
import { isListable } from '../services/tool-search.ts';
import { MCP } from '../messages.ts';

export const TOOL_URI = 'catalog://tools/';
export const API_URI = 'catalog://apis/';
export const RESOURCE_PAGE = 100;
/** Not in ErrorCode yet; the spec's code for an unknown resource URI. */
export const RESOURCE_NOT_FOUND = -32002;

const JSON_TYPE = 'application/json';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: `${TOOL_URI}{aid}`,
    name: 'tool-contract',
    title: 'Tool contract',
    mimeType: JSON_TYPE,
    description: 'One tool contract by aid, action block withheld (the get_tool tool with a tax payload returns it).',
  },
  {
    uriTemplate: `${API_URI}{service_name}`,
    name: 'api-manifest',
    title: 'Web-API manifest',
    mimeType: JSON_TYPE,
    description: 'The compiled manifest of one web API: base URL, auth, intents.',
  },
];

// Both orders are derived once per catalog version: snapshots and API catalogs are replaced, never mutated.
const toolOrder = new WeakMap<Snapshot, ToolContract[]>();
const apiOrder = new WeakMap<ApiCatalog, ApiRecord[]>();

function listedTools(snapshot: Snapshot): ToolContract[] {
  let list = toolOrder.get(snapshot);
  if (!list) toolOrder.set(snapshot, (list = snapshot.tools.filter(isListable)));
  return list;
}

function listedApis(apis: ApiCatalog): ApiRecord[] {
  let list = apiOrder.get(apis);
  // Every served manifest (byName holds only those), most reliable first, ties by name: not the search
  // engine's empty query, whose answers stop at its result cap (1,000) and would cut the listing short.
  if (!list) {
    list = [...apis.byName.values()].sort(
      (a, b) => b.trust.reliability_score - a.trust.reliability_score || (a.service_name < b.service_name ? -1 : 1),
    );
    apiOrder.set(apis, list);
  }
  return list;
}

const toolResource = (c: ToolContract): Resource => ({
  uri: `${TOOL_URI}${c.identity.aid}`,
  name: c.identity.aid,
  title: c.identity.name,
  mimeType: JSON_TYPE,
  ...(c.identity.task ? { description: c.identity.task } : {}),
});

const apiResource = (r: ApiRecord): Resource => ({
  uri: `${API_URI}${r.service_name}`,
  name: r.service_name,
  title: r.manifest.service || r.service_name,
  mimeType: JSON_TYPE,
  description: `${r.category} web API, ${r.manifest.intents.length} intents`,
});

const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new McpError(ErrorCode.InvalidParams, MCP.invalidCursor);
  return Number(m[1]);
}

/** One page over the tools (most reliable first), then the API manifests. */
export function listResources(
  ctx: AppContext,
  cursor: string | undefined,
): { resources: Resource[]; nextCursor?: string } {
  const offset = decodeCursor(cursor);
  const tools = listedTools(ctx.snapshot);
  const apis = listedApis(ctx.apis);
  const end = offset + RESOURCE_PAGE;
  const resources = [
    ...tools.slice(offset, end).map(toolResource),
    ...apis.slice(Math.max(0, offset - tools.length), Math.max(0, end - tools.length)).map(apiResource),
  ];
  return end < tools.length + apis.length ? { resources, nextCursor: encodeCursor(end) } : { resources };
}

const notFound = (uri: string) => new McpError(RESOURCE_NOT_FOUND, 'Resource not found', { uri: uri.slice(0, 300) });

export async function readResource(ctx: AppContext, caller: Caller, uri: string): Promise<ReadResourceResult> {
  const json = (value: unknown): ReadResourceResult => ({
    contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value) }],
  });
  if (uri.startsWith(TOOL_URI)) {
    let tool: ToolContract;
    try {
      tool = toolByAid(ctx, uri.slice(TOOL_URI.length));
    } catch {
      throw notFound(uri);
    }
    // Reading a contract is a lookup, counted like GET /api/v1/tools/{aid}.
    return json(await lookUp(ctx, tool, caller));
  }
  if (uri.startsWith(API_URI)) {
    const record = ctx.apis.byName.get(uri.slice(API_URI.length));
    if (!record) throw notFound(uri);
    return json(record.manifest);
  }
  throw notFound(uri);
}
