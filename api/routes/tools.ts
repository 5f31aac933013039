// The tool catalog: GET /api/v1/tools (search or top list), GET /api/v1/tools/trending,
// GET /api/v1/tools/{aid} (partial contract), POST /api/v1/tools/{aid} (the tax gate and telemetry),
// GET /api/v1/tools/{aid}/instructions (plain-text agent instructions, permissive licences only). The search,
// lookup and tax-gate functions are shared with the MCP tools (api/mcp), so both ways in behave the same.
import { getRouterParam, type H3, type H3Event } from 'h3';
import { isSafeId } from '../../build/catalog/catalog-store.ts';
import { placeholderNames, servedArgv } from '../../build/model/command.ts';
import { AID_PATTERN, type Platform, PLATFORMS, type Requires, type SchemaObject, type ToolContract } from '../../build/model/contract.ts';
import { permitsInstructions } from '../../build/model/license.ts';
import { fullContract, LISTING_NOTE, listingItem, microTask, partialContract, type TrustTelemetry, verificationText } from '../../build/model/views.ts';
import { readJsonBody } from '../http/body.ts';
import { jsonArray, listingItemJson } from '../services/listing-json.ts';
import { type AgentClass, clientIp, userAgentClassOf } from '../http/client.ts';
import type { AppContext } from '../context.ts';
import { httpError, toolNotFound } from '../http/errors.ts';
import { enumQuery, intQuery, LIMIT, textQuery } from '../http/query.ts';
import { enforce } from '../state/rate-limit/memory.ts';
import type { Suggestion } from '../state/review-queue/file.ts';
import { cleanText, parseTaxBody } from '../services/tax-payload.ts';
import { type TrustCounters, trustTelemetry } from '../state/telemetry/types.ts';

export const LIST_LIMIT = 10;
const AID = new RegExp(AID_PATTERN);

/** Who is asking: the rate-limit key (an address, never stored) and the coarse agent class telemetry keeps. */
export interface Caller {
  ip: string;
  agent: AgentClass;
}

export const callerOf = (event: H3Event, ctx: AppContext): Caller => ({ ip: clientIp(event, ctx.client), agent: userAgentClassOf(event) });

/** The contract for an aid, or a 404. Malformed aids never reach a lookup (let alone a file). */
export function toolByAid(ctx: AppContext, raw: string): ToolContract {
  const tool = AID.test(raw) && isSafeId(raw) ? ctx.snapshot.byAid.get(raw) : undefined;
  if (!tool) throw toolNotFound(raw);
  return tool;
}

export const toolOf = (event: H3Event, ctx: AppContext): ToolContract => toolByAid(ctx, getRouterParam(event, 'aid') ?? '');

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
const JSON_TYPE = 'application/json;charset=UTF-8';
const NOTE_JSON = JSON.stringify(LISTING_NOTE);

async function listingJson(ctx: AppContext, tools: ToolContract[]): Promise<string[]> {
  const telemetry = await telemetryOfAll(ctx, tools);
  return tools.map((t, i) => listingItemJson(t, ctx.config.baseUrl, telemetry[i] as TrustTelemetry));
}

/** What GET /api/v1/tools answers, as JSON text: a search, or the top list for an empty query. */
export async function toolListJson(ctx: AppContext, q: string, category: Platform | '', limit = LIST_LIMIT): Promise<string> {
  const items = await listingJson(ctx, ctx.toolSearch.search(q, { platform: category, limit }));
  return `{"query":${JSON.stringify(q)},"category":${JSON.stringify(category)},"count":${items.length},"results":${jsonArray(items)},"note":${NOTE_JSON}}`;
}

/** What GET /api/v1/tools/trending answers, as JSON text. */
export async function trendingListJson(ctx: AppContext, limit: number): Promise<string> {
  const items = await listingJson(ctx, ctx.toolSearch.search('', { limit }));
  return `{"count":${items.length},"results":${jsonArray(items)}}`;
}

export const toolList = async (...args: Parameters<typeof toolListJson>): Promise<object> => JSON.parse(await toolListJson(...args));
export const trendingList = async (...args: Parameters<typeof trendingListJson>): Promise<object> => JSON.parse(await trendingListJson(...args));

function jsonText(event: H3Event, text: string): string {
  event.res.headers.set('content-type', JSON_TYPE);
  return text;
}

/** A lookup is worth counting but never worth failing the request for. */
async function recordLookup(ctx: AppContext, aid: string, agent: AgentClass): Promise<void> {
  await ctx.telemetry
    .record({ kind: 'lookup', aid, agent, at: new Date().toISOString() })
    .catch((error: unknown) => console.error('telemetry: lookup not recorded:', (error as Error).message));
}

/** The partial contract of a plain lookup, counted as one. */
export async function lookUp(ctx: AppContext, tool: ToolContract, caller: Caller) {
  // Independent (the trust block shows no lookup count, and recordLookup never rejects): one round trip of each, at once.
  const [, telemetry] = await Promise.all([recordLookup(ctx, tool.identity.aid, caller.agent), telemetryOf(ctx, tool.identity.aid)]);
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
export async function taxGate(ctx: AppContext, tool: ToolContract, caller: Caller, readBody: () => Promise<unknown>): Promise<TaxGateResult> {
  const aid = tool.identity.aid;
  await enforce(ctx.telemetryLimiter, `${caller.ip} ${aid}`);
  const body = parseTaxBody(await readBody());
  if (body.kind === 'none') return { paid: false, contract: await lookUp(ctx, tool, caller) };
  const { payload } = body;
  const { agent } = caller;
  try {
    // Resolves only after the event is on disk: a 200 never reports something a restart would forget.
    await ctx.telemetry.record({
      kind: 'report', aid, agent, at: new Date().toISOString(),
      execution_feedback: payload.execution_feedback,
      trend_keyword: payload.trend_keyword,
      ...(payload.validation_vote ? { validation_vote: payload.validation_vote } : {}),
      // Trust evidence counts distinct clients; only a salted hash of the address is stored.
      client: ctx.clientHash(caller.ip),
    });
  } catch (error) {
    console.error('telemetry: report not recorded:', (error as Error).message);
    throw httpError(503, 'Your report could not be stored, so nothing was recorded; please retry later.', { 'retry-after': '5' });
  }
  if (payload.micro_translation) {
    await ctx.reviewQueue
      .submit({ aid, field: (microTask(tool.action)?.field ?? null) as Suggestion['field'], value: payload.micro_translation, agent })
      .catch((error: unknown) => console.error('review queue: suggestion not stored:', (error as Error).message));
  }
  const telemetry = await telemetryOf(ctx, aid);
  return { paid: true, contract: fullContract(tool, ctx.config.baseUrl, telemetry), telemetry };
}

const PLACEHOLDERS: Record<string, string> = {
  prompt: 'the instruction or text you give the tool',
  model: 'the model name or id to use',
  api_key: 'your own API key for the upstream service (never send it to this catalog)',
  script: 'path to your script file',
  input: 'the input value or file', output: 'where to write the result', file: 'path to a file', path: 'a file or folder path',
  url: 'the URL to work on', text: 'the text to work on', query: 'your query', port: 'a TCP port number',
};

// Plain text, one line per value: contract text loses control characters (no terminal escapes, no fake lines).
const one = (v: unknown) => cleanText(typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function schemaLines(s: SchemaObject & { target?: string }): string[] {
  const required = new Set(s.required ?? []);
  const out = [`type: ${one(s.type)}`];
  if (s.target) out.push(`target: ${s.target === 'stdout' ? 'stdout (the command prints the result)' : `the file {${one(s.target)}}`}`);
  if (s.format) out.push(`format: ${one(Array.isArray(s.format) ? s.format.join(', ') : s.format)}`);
  if (s.description) out.push(`description: ${one(s.description)}`);
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    const bits = [p.type ? `${one(p.type)}` : null, required.has(name) ? 'required' : 'optional',
      p.role ? `role ${p.role}` : null,
      p.default !== undefined ? `default ${one(p.default)}` : null, p.enum ? `one of ${one(p.enum.map(String).join(', '))}` : null,
      p.examples ? `e.g. ${p.examples.map((e) => one(e)).join(' | ')}` : null];
    out.push(`- ${one(name)} (${bits.filter(Boolean).join(', ')})${p.description ? `: ${one(p.description)}` : ''}`);
  }
  return out;
}

/** The agent-instructions document of GET /api/v1/tools/{aid}/instructions. */
/** One line per placeholder: the contract's own description, role and example, else a generic hint. */
function placeholderLine(c: ToolContract, name: string): string {
  const p = Object.hasOwn(c.logic.input_schema.properties ?? {}, name) ? c.logic.input_schema.properties?.[name] : undefined;
  if (!p?.description) return `- {${name}}: ${PLACEHOLDERS[name.toLowerCase()] ?? 'a value you supply'}`;
  const example = p.examples?.[0] ?? p.default;
  const kind = [p.role, p.type].filter(Boolean).join(', ');
  return `- {${name}}${kind ? ` (${one(kind)})` : ''}: ${one(p.description)}${example !== undefined ? `; e.g. ${one(example)}` : ''}`;
}

function argvLine(cmd: string | null): string[] {
  const argv = servedArgv(cmd);
  return argv ? [`As argv (no shell; fill placeholders inside each element): ${one(JSON.stringify(argv))}`] : [];
}

function requiresLines(r: Requires | undefined): string[] {
  if (!r) return [];
  const lines = [
    r.network ? '- network: the execute command needs the internet or a server' : null,
    r.env?.length ? `- environment variables (your credentials): ${one(r.env.join(', '))}` : null,
    ...Object.entries(r.runtime ?? {}).map(([name, v]) => `- ${name} ${one(v)}`),
  ].filter((l): l is string => l !== null);
  return lines.length ? ['', '## Requires', ...lines] : [];
}

export function instructionsText(c: ToolContract, baseUrl: string): string {
  const { identity: id, action } = c;
  const names = [...new Set([action.install_cmd, action.execute_cmd].flatMap((cmd) => (cmd ? placeholderNames(cmd) : [])))];
  return [
    `# ${one(id.name)} (${id.aid}): agent instructions`,
    '',
    ...(id.task ? [`Task: ${one(id.task)}`] : []),
    `Platform: ${id.platform}`, `Version: ${one(id.version ?? 'unknown')}`, `Licence: ${one(id.license)}`, `Source: ${one(action.source_url)}`,
    `Verification (sandboxed install and run): ${one(verificationText(c))}`,
    '', '## Install', action.install_cmd ? one(action.install_cmd) : 'No install command is known yet.', ...argvLine(action.install_cmd),
    '', '## Execute', action.execute_cmd ? one(action.execute_cmd) : 'No execute command is known yet.', ...argvLine(action.execute_cmd),
    ...(names.length ? ['', 'Placeholders (replace each {name}, braces included):', ...names.map((n) => placeholderLine(c, n))] : []),
    ...requiresLines(action.requires),
    '', '## Input', ...schemaLines(c.logic.input_schema),
    '', '## Output', ...schemaLines(c.logic.output_schema),
    '', '## Telemetry (opt-in)',
    `After using the tool, POST ${baseUrl}/api/v1/tools/${id.aid} with Content-Type: application/json and`,
    '{"execution_feedback": <HTTP-style status of your use: 200 worked, 500 failed>, "trend_keyword": "<your use case, two or more words>"}',
    'Optionally add "validation_vote": "yes" | "no" | "partial" when you know whether it solved your task.',
    '', '## Canonical', `${baseUrl}/api/v1/tools/${id.aid}`, '',
  ].join('\n');
}

export function toolRoutes(app: H3, ctx: AppContext) {
  app.get('/api/v1/tools', (event) => {
    const q = textQuery(event, 'q', { required: false });
    const category = enumQuery(event, 'category', PLATFORMS);
    return toolListJson(ctx, q, category).then((text) => jsonText(event, text));
  });

  app.get('/api/v1/tools/trending', (event) => trendingListJson(ctx, intQuery(event, 'limit', LIMIT)).then((text) => jsonText(event, text)));

  app.get('/api/v1/tools/:aid', (event) => lookUp(ctx, toolOf(event, ctx), callerOf(event, ctx)));

  app.post('/api/v1/tools/:aid', async (event) => {
    const tool = toolOf(event, ctx);
    const result = await taxGate(ctx, tool, callerOf(event, ctx), () => readJsonBody(event));
    if (!result.paid) event.res.status = 402;
    return result.contract;
  });

  app.get('/api/v1/tools/:aid/instructions', (event) => {
    const tool = toolOf(event, ctx);
    const license = tool.identity.license;
    if (!permitsInstructions(license)) {
      const why = license ? `its licence (${one(license)}) does not permit MIT or Apache-2.0 terms` : 'its licence is unknown';
      throw httpError(404, `No agent instructions for '${tool.identity.aid}': ${why}. Instructions are offered for MIT or Apache-2.0 tools only.`);
    }
    return new Response(instructionsText(tool, ctx.config.baseUrl), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });
}
