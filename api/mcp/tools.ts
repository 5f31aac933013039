// The MCP tools: what each one is (name, description, schemas, hints) and what it does. Every tool runs the
// REST API's own functions (api/routes/tools.ts, the API catalog), so ranking, the tax gate's validation,
// rate limit and telemetry are the same whichever way an agent comes in.
import type { ContractKind, Platform } from '../../build/model/contract.ts';
import type { HeldInputRole } from '../../build/model/input-roles.ts';
import { MCP_TOOL_NAMES, type McpToolName } from '../../build/discovery/agent-document.ts';
import type { AppContext } from '../context.ts';
import { serviceSearch } from '../services/api-search.ts';
import { manifestByName } from '../services/apis.ts';
import { operationById, operationList } from '../services/operations.ts';
import { type Caller, lookUp, taxGate, telemetryOf, toolByAid, toolList, trendingList } from '../services/tools.ts';
import { cleanText } from '../../build/model/clean-text.ts';
import { TaxPayload } from '../services/tax-payload.ts';
import { inputSchemas, MCP_LIST_LIMIT, outputSchemas } from './schemas.ts';

type Args = Record<string, unknown>;

export interface ToolCall {
  ctx: AppContext;
  caller: Caller;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: false;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface McpTool {
  name: McpToolName;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  run(args: Args, call: ToolCall): Promise<object>;
}

const TAX_FIELDS = Object.keys(TaxPayload.properties) as (keyof typeof TaxPayload.properties)[];

/** The tax payload fields the caller sent, as the REST body would carry them (absent and null alike left out). */
function taxBody(args: Args): Args | undefined {
  const body: Args = {};
  for (const k of TAX_FIELDS) if (args[k] !== undefined && args[k] !== null) body[k] = args[k];
  return Object.keys(body).length ? body : undefined;
}

const text = (v: unknown) => cleanText(typeof v === 'string' ? v : '');
const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const records: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

const defs: Record<McpToolName, Omit<McpTool, 'name' | 'inputSchema' | 'outputSchema'>> = {
  search_tools: {
    title: 'Search tool contracts',
    description:
      'Find installable tools (GitHub, PyPI, npm libraries and models) by keyword or intent, e.g. "send transactional email". ' +
      'Returns up to 10 contracts ranked by relevance and reliability: identity, input/output schemas, trust and live usage counters, ' +
      'without the action block (install and execute commands). Call get_tool with an aid for one contract. ' +
      'Say what you hold (inputs: input_file, text ...; formats: md, png ...): answers then take what you can hand over.',
    annotations: readOnly,
    run: (args, { ctx, caller }) =>
      toolList(
        ctx,
        text(args.query),
        {
          category: (args.category as Platform | undefined) ?? '',
          limit: (args.limit as number | undefined) ?? MCP_LIST_LIMIT.default,
          kind: (args.kind as ContractKind | undefined) ?? '',
          inputs: (args.inputs as HeldInputRole[] | undefined) ?? [],
          formats: ((args.formats as string[] | undefined) ?? []).map((f) => f.toLowerCase()),
          offline: args.offline === true,
        },
        caller,
      ),
  },
  get_tool: {
    title: 'Get a tool contract',
    description:
      'One tool contract by aid. Without a tax payload: the partial contract (action withheld) plus what to send. ' +
      'With execution_feedback (HTTP-style status of your last use of the tool; 200 on first use) and trend_keyword (your use case, ' +
      'two or more words): the full contract with the action block (install_cmd, execute_cmd); the report is recorded anonymously.',
    annotations: records,
    async run(args, { ctx, caller }) {
      const tool = toolByAid(ctx, text(args.aid));
      const body = taxBody(args);
      if (body === undefined) return lookUp(ctx, tool, caller);
      return (await taxGate(ctx, tool, caller, async () => body)).contract;
    },
  },
  report_outcome: {
    title: 'Report how a tool worked',
    description:
      'After using a tool, report the outcome: execution_feedback (200 worked, 4xx/5xx failed), trend_keyword (your use case), ' +
      'optionally validation_vote (yes / no / partial: did it solve your task). Anonymous; keeps reliability scores honest. ' +
      "Returns the tool's updated usage counters.",
    annotations: records,
    async run(args, { ctx, caller }) {
      const tool = toolByAid(ctx, text(args.aid));
      // A body is always sent, so the gate stores the report (and reads the counters after it) or throws
      // its 422; the unpaid branch cannot happen, and would read them itself.
      const result = await taxGate(ctx, tool, caller, async () => taxBody(args) ?? {});
      return {
        aid: tool.identity.aid,
        recorded: true,
        telemetry: result.paid ? result.telemetry : await telemetryOf(ctx, tool.identity.aid),
      };
    },
  },
  get_trending: {
    title: 'Most reliable tools',
    description:
      'The top tools of the catalog by reliability score (1 to 20, default 10), as listing items without the action block.',
    annotations: readOnly,
    run: (args, { ctx }) => trendingList(ctx, (args.limit as number | undefined) ?? 10),
  },
  search_apis: {
    title: 'Search web-API manifests',
    description:
      'Find web APIs by intent, e.g. "send sms" or "geocode an address". Returns up to 10 compiled API listings ' +
      '(base URL, auth type, number of intents); call get_api_manifest with a service_name for the endpoints.',
    annotations: readOnly,
    run: async (args, { ctx }) => serviceSearch(ctx, text(args.query)),
  },
  get_api_manifest: {
    title: 'Get a web-API manifest',
    description:
      'The compiled manifest of one web API: base URL, authentication, and its intents (method, path, parameters, returns).',
    annotations: readOnly,
    run: async (args, { ctx }) => manifestByName(ctx, typeof args.service_name === 'string' ? args.service_name : ''),
  },
  search_api_operations: {
    title: 'Search the operations of a web API',
    description:
      'The operation recipes of one API ranked for an intent (or all of them, paged): method, path, content type, ' +
      'every parameter with where it goes (path, query, header, body), and which auth schemes apply.',
    annotations: readOnly,
    run: async (args, { ctx }) =>
      operationList(
        ctx,
        text(args.service_name),
        text(args.query),
        (args.limit as number | undefined) ?? 50,
        (args.offset as number | undefined) ?? 0,
      ),
  },
  get_api_operation: {
    title: 'Get one web-API operation recipe',
    description: 'One operation recipe by service_name and operation id: everything needed to build the HTTP call.',
    annotations: readOnly,
    run: async (args, { ctx }) => operationById(ctx, text(args.service_name), text(args.operation_id)),
  },
};

export const MCP_TOOLS: McpTool[] = MCP_TOOL_NAMES.map((name) => ({
  name,
  ...defs[name],
  inputSchema: inputSchemas[name],
  outputSchema: outputSchemas[name],
}));

export const mcpToolByName = new Map(MCP_TOOLS.map((t) => [t.name as string, t]));
