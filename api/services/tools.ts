// The tool catalog as REST and MCP serve it: search and top lists (as JSON text: search is the hottest route),
// lookups of one contract (counted), and the tax gate (a report, durable before the full contract is given).
// Shared by routes/tools.ts and the MCP tools (api/mcp), so both ways in behave the same.
import { isSafeId } from '../../build/catalog/catalog-store.ts';
import { AID_PATTERN, type ContractKind, type Platform, type ToolContract } from '../../build/model/contract.ts';
import type { HeldInputRole } from '../../build/model/input-roles.ts';
import {
  fullContract,
  LISTING_NOTE,
  listingItem,
  microTask,
  partialContract,
  type TrustTelemetry,
} from '../../build/model/views.ts';
import type { AppContext } from '../context.ts';
import type { AgentClass } from './agent-class.ts';
import { CATALOG } from '../messages.ts';
import { enforce } from '../state/rate-limit/enforce.ts';
import type { Suggestion } from '../state/review-queue/types.ts';
import { verdictOf } from '../state/search-outcomes/records.ts';
import { type TrustCounters, trustTelemetry } from '../state/telemetry/types.ts';
import { DomainError } from './errors.ts';
import { jsonArray, listingItemJson } from './listing-json.ts';
import { parseTaxBody } from './tax-payload.ts';

export const LIST_LIMIT = 10;
const AID = new RegExp(AID_PATTERN);

/** Who is asking: the rate-limit key (an address, never stored) and the coarse agent class telemetry keeps. */
export interface Caller {
  ip: string;
  agent: AgentClass;
}

/** The contract for an aid, or a 404. Malformed aids never reach a lookup (let alone a file). */
export function toolByAid(ctx: AppContext, raw: string): ToolContract {
  const tool = AID.test(raw) && isSafeId(raw) ? ctx.snapshot.byAid.get(raw) : undefined;
  if (!tool) throw new DomainError('not_found', CATALOG.toolNotFound(raw));
  return tool;
}

export async function telemetryOf(ctx: AppContext, aid: string) {
  return trustTelemetry((await ctx.telemetry.trustCounters([aid]))[0] as TrustCounters);
}

/** The live trust telemetry of several tools, in order, in one store read. */
async function telemetryOfAll(ctx: AppContext, tools: ToolContract[]) {
  return (await ctx.telemetry.trustCounters(tools.map((t) => t.identity.aid))).map(trustTelemetry);
}

/** Listing items with live counters, in the given order. */
export async function listingItems(ctx: AppContext, tools: ToolContract[]) {
  const telemetry = await telemetryOfAll(ctx, tools);
  return tools.map((t, i) => listingItem(t, ctx.config.baseUrl, telemetry[i]));
}

// The listing documents are built as JSON text from pre-serialised items (api/listing-json.ts), since
// search is the hottest route; MCP, which needs objects, parses that text, so each layout exists once.
const NOTE_JSON = JSON.stringify(LISTING_NOTE);

async function listingJson(ctx: AppContext, tools: ToolContract[]): Promise<string[]> {
  const telemetry = await telemetryOfAll(ctx, tools);
  return tools.map((t, i) => listingItemJson(t, ctx.config.baseUrl, telemetry[i] as TrustTelemetry));
}

/** What a search may be narrowed by besides its words (GET /api/v1/tools, MCP search_tools). */
export interface ToolListFilters {
  category?: Platform | '';
  limit?: number;
  kind?: ContractKind | '';
  inputs?: readonly HeldInputRole[];
  /** Formats or extensions of the files held (ranking only). */
  formats?: readonly string[];
  /** Only tools that need neither the internet nor credentials. */
  offline?: boolean;
}

/**
 * Remembers which tools a search answered a client, so its later reports count by rank (first answers in the
 * field, state/search-outcomes). Bookkeeping: it never fails the search.
 */
export async function noteSearch(ctx: AppContext, q: string, tools: readonly ToolContract[], caller?: Caller) {
  if (!caller || q.trim() === '') return;
  await ctx.searchOutcomes
    .recordSearch(
      ctx.clientHash(caller.ip),
      q,
      tools.map((t) => t.identity.aid),
    )
    .catch((error: unknown) => console.error('search outcomes: search not noted:', (error as Error).message));
}

/**
 * What GET /api/v1/tools answers, as JSON text: a search, or the top list for an empty query. With a caller,
 * the answers are remembered for its reports (noteSearch).
 */
export async function toolListJson(
  ctx: AppContext,
  q: string,
  filters: ToolListFilters = {},
  caller?: Caller,
): Promise<string> {
  const { category = '', limit = LIST_LIMIT, kind = '', inputs = [], formats = [], offline = false } = filters;
  const found = ctx.toolSearch.search(q, {
    platform: category,
    limit,
    ...(kind ? { kind } : {}),
    inputs,
    formats,
    offline,
  });
  const [items] = await Promise.all([listingJson(ctx, found), noteSearch(ctx, q, found, caller)]);
  const kindJson = kind ? `"kind":${JSON.stringify(kind)},` : '';
  const inputsJson = inputs.length ? `"inputs":${JSON.stringify(inputs)},` : '';
  const formatsJson = formats.length ? `"formats":${JSON.stringify(formats)},` : '';
  const offlineJson = offline ? '"offline":true,' : '';
  return `{"query":${JSON.stringify(q)},"category":${JSON.stringify(category)},${kindJson}${inputsJson}${formatsJson}${offlineJson}"count":${items.length},"results":${jsonArray(items)},"note":${NOTE_JSON}}`;
}

/** What GET /api/v1/tools/trending answers, as JSON text. */
export async function trendingListJson(ctx: AppContext, limit: number): Promise<string> {
  const items = await listingJson(ctx, ctx.toolSearch.search('', { limit }));
  return `{"count":${items.length},"results":${jsonArray(items)}}`;
}

export const toolList = async (...args: Parameters<typeof toolListJson>): Promise<object> =>
  JSON.parse(await toolListJson(...args));
export const trendingList = async (...args: Parameters<typeof trendingListJson>): Promise<object> =>
  JSON.parse(await trendingListJson(...args));

/** A lookup is worth counting but never worth failing the request for. */
async function recordLookup(ctx: AppContext, aid: string, agent: AgentClass): Promise<void> {
  await ctx.telemetry
    .record({ kind: 'lookup', aid, agent, at: new Date().toISOString() })
    .catch((error: unknown) => console.error('telemetry: lookup not recorded:', (error as Error).message));
}

/** The partial contract of a plain lookup, counted as one. */
export async function lookUp(ctx: AppContext, tool: ToolContract, caller: Caller) {
  // Independent (the trust block shows no lookup count, and recordLookup never rejects): one round trip of each, at once.
  const [, telemetry] = await Promise.all([
    recordLookup(ctx, tool.identity.aid, caller.agent),
    telemetryOf(ctx, tool.identity.aid),
  ]);
  return partialContract(tool, ctx.config.baseUrl, telemetry);
}

export type TaxGateResult =
  | { paid: false; contract: ReturnType<typeof partialContract> }
  /** `telemetry`: the counters read after the report was stored, as the contract's trust block shows them. */
  | { paid: true; contract: ReturnType<typeof fullContract>; telemetry: TrustTelemetry };

/**
 * The tax gate, for every way in (REST POST, MCP tools): the caller's per-tool rate limit first (429), then
 * the body, read only now (413/415/422). No payload: a counted lookup and the partial contract. A valid
 * payload: the report, durable before the full contract is returned (503 when it cannot be stored).
 */
export async function taxGate(
  ctx: AppContext,
  tool: ToolContract,
  caller: Caller,
  readBody: () => Promise<unknown>,
): Promise<TaxGateResult> {
  const aid = tool.identity.aid;
  await enforce(ctx.telemetryLimiter, `${caller.ip} ${aid}`);
  const body = parseTaxBody(await readBody());
  if (body.kind === 'none') return { paid: false, contract: await lookUp(ctx, tool, caller) };
  const { payload } = body;
  const { agent } = caller;
  const client = ctx.clientHash(caller.ip);
  try {
    // Resolves only after the event is on disk: a 200 never reports something a restart would forget.
    await ctx.telemetry.record({
      kind: 'report',
      aid,
      agent,
      at: new Date().toISOString(),
      execution_feedback: payload.execution_feedback,
      trend_keyword: payload.trend_keyword,
      ...(payload.validation_vote ? { validation_vote: payload.validation_vote } : {}),
      // Trust evidence counts distinct clients; only a salted hash of the address is stored.
      client,
    });
  } catch (error) {
    console.error('telemetry: report not recorded:', (error as Error).message);
    throw new DomainError('unavailable', CATALOG.reportNotStored, 5);
  }
  await ctx.searchOutcomes
    .recordReport(client, aid, verdictOf(payload.execution_feedback, payload.validation_vote), payload.trend_keyword)
    .catch((error: unknown) => console.error('search outcomes: report not credited:', (error as Error).message));
  if (payload.micro_translation) {
    await ctx.reviewQueue
      .submit({
        aid,
        field: (microTask(tool.action)?.field ?? null) as Suggestion['field'],
        value: payload.micro_translation,
        agent,
      })
      .catch((error: unknown) => console.error('review queue: suggestion not stored:', (error as Error).message));
  }
  const telemetry = await telemetryOf(ctx, aid);
  return { paid: true, contract: fullContract(tool, ctx.config.baseUrl, telemetry), telemetry };
}
