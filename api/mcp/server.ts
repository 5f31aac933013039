// One MCP server per HTTP request (stateless Streamable HTTP): tools/list, tools/call, resources/list,
// resources/templates/list, resources/read; initialize and ping come from the SDK. The low-level Server is
// used on purpose: the tool schemas are JSON Schema (shared with the OpenAPI document), which McpServer
// would only accept as zod.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_NAME } from '../../build/discovery/agent-document.ts';
import { createAjv } from '../../build/model/validate-contract.ts';
import type { AppContext } from '../context.ts';
import type { Caller } from '../services/tools.ts';
import { listResources, RESOURCE_TEMPLATES, readResource } from './resources.ts';
import { argumentSchema } from './schemas.ts';
import { describeArgumentErrors, errorResult, resultOfError, toolResult } from './results.ts';
import { MCP_TOOLS, mcpToolByName } from './tools.ts';
import { MCP } from '../messages.ts';

export const SERVER_INFO = { name: 'tool-contract-catalog', title: SERVICE_NAME, version: '1.0.0' };

export const SERVER_CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } };

export const INSTRUCTIONS = [
  'A catalog of machine-readable contracts for installable tools (GitHub, PyPI, npm) and web APIs.',
  'Find a tool with search_tools (by intent; say what you hold with inputs and formats, and offline: true if you have no network,',
  'so the first answers are tools you can hand your data to), read its contract with get_tool; to receive the install and execute commands,',
  'call get_tool again with execution_feedback (HTTP-style status of your last use; 200 on first use) and trend_keyword (your use case).',
  'After using a tool, call report_outcome. Web APIs: search_apis (each API with its best operations), then ' +
    'get_api_operation for the recipe to call (search_api_operations for more), or get_api_manifest.',
].join(' ');

const ajv = createAjv();
const validators = new Map(MCP_TOOLS.map((t) => [t.name as string, ajv.compile(argumentSchema(t.inputSchema))]));

/** What tools/list shows: everything but the implementation. */
export const listedTool = ({ run: _run, ...tool }: (typeof MCP_TOOLS)[number]): Tool => tool as Tool;

async function callTool(
  ctx: AppContext,
  caller: Caller,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const tool = mcpToolByName.get(name);
  // An unknown tool is a protocol error (the caller named something that does not exist), not a tool result.
  if (!tool) throw new McpError(ErrorCode.InvalidParams, MCP.unknownTool(name));
  const check = validators.get(name);
  if (check && !check(args)) return errorResult(describeArgumentErrors(check.errors));
  try {
    return toolResult(await tool.run(args, { ctx, caller }));
  } catch (error) {
    return resultOfError(error, name);
  }
}

interface RequestSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  omit(mask: { params: true }): { loose(): Parameters<Server['setRequestHandler']>[0] };
}

/**
 * Registers a handler whose params are checked here rather than by the SDK, which would answer a malformed
 * call (tools/call without a name, arguments that are not an object) with -32603 Internal error: it is the
 * caller's mistake, so -32602 Invalid params, naming the field.
 */
function handle<T>(server: Server, schema: RequestSchema<T>, handler: (request: T) => unknown) {
  server.setRequestHandler(schema.omit({ params: true }).loose(), (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || 'params'}: ${i.message}`);
      throw new McpError(ErrorCode.InvalidParams, MCP.invalidParams(issues));
    }
    return handler(parsed.data) as never;
  });
}

export function createMcpServer(ctx: AppContext, caller: Caller): Server {
  const server = new Server(
    { ...SERVER_INFO, websiteUrl: `${ctx.config.baseUrl}/` },
    { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS },
  );
  handle(server, ListToolsRequestSchema, () => ({ tools: MCP_TOOLS.map(listedTool) }));
  handle(server, CallToolRequestSchema, (req) => callTool(ctx, caller, req.params.name, req.params.arguments ?? {}));
  handle(server, ListResourcesRequestSchema, (req) => listResources(ctx, req.params?.cursor));
  handle(server, ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  handle(server, ReadResourceRequestSchema, (req) => readResource(ctx, caller, req.params.uri));
  return server;
}
