// The OpenAPI 3.1 document of the service (GET /openapi.json). Components come from the TypeBox schemas the
// server validates with (build/contract.ts, api/tax-payload.ts, api/query.ts), so they cannot drift.
// openApiDocument(baseUrl) is pure, so the build can also write a static copy.
import {
  Action,
  AID_PATTERN,
  CONTRACT_KINDS,
  Identity,
  Logic,
  McpToolChange,
  PLATFORMS,
  SchemaObject,
  ServedAction,
  ToolContract,
  Trust,
  VERIFICATION_LEVELS,
  VERIFICATION_STATUSES,
} from '../../build/model/contract.ts';
import { Recipe } from '../../build/apis/recipe-schema.ts';
import { HELD_INPUT_ROLES } from '../../build/model/input-roles.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../../build/discovery/agent-document.ts';
import { ADMIN_SECURITY_SCHEMES, adminComponentSchemas, adminPaths } from './admin-paths.ts';
import { QuerySchemas } from '../services/requests.ts';
import { subregistryComponentSchemas, subregistryPaths } from './subregistry-paths.ts';
import { TaxPayload, WrappedTaxPayload } from '../services/tax-payload.ts';

type Json = Record<string, unknown>;
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Json, required: string[] = Object.keys(properties), extra: Json = {}): Json => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});
const str = { type: 'string' };
const int = { type: 'integer', minimum: 0 };

const listingProps = {
  identity: ref('Identity'),
  logic: ref('Logic'),
  trust: ref('ServedTrust'),
  registry: ref('RegistryBlock'),
  endpoint: { type: 'string', pattern: '^GET /api/v1/tools/' },
};
const contractProps = {
  identity: ref('Identity'),
  logic: ref('Logic'),
  trust: ref('ServedTrust'),
  registry: ref('RegistryBlock'),
  telemetry_protocol: ref('TelemetryProtocol'),
  quality_signal: ref('QualitySignal'),
  micro_task: ref('MicroTask'),
  via: str,
};
const contractRequired = [
  'identity',
  'logic',
  'trust',
  'action',
  'registry',
  'telemetry_protocol',
  'quality_signal',
  'via',
];

function componentApiListingItem(): Json {
  return obj({
    type: { const: 'api' },
    service_name: str,
    category: str,
    base_url: str,
    auth_type: str,
    intents_count: int,
    manifest_url: { type: 'string', format: 'uri' },
    trust: obj({ reliability_score: { type: 'number' } }),
  });
}

export const componentSchemas: Record<string, object> = {
  SchemaObject,
  Identity,
  Logic,
  Trust,
  Action,
  ServedAction,
  ToolContract,
  McpToolChange,
  TaxPayload,
  WrappedTaxPayload,
  TrustTelemetry: obj({
    requests: int,
    success_rate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    votes: obj({ yes: int, no: int, partial: int }),
  }),
  TrustVerification: {
    type: ['object', 'null'],
    properties: {
      status: { enum: [...VERIFICATION_STATUSES] },
      level: { enum: [...VERIFICATION_LEVELS, null] },
      checked_at: { type: 'string', format: 'date-time' },
      runtime: { type: ['string', 'null'] },
    },
    required: ['status', 'level', 'checked_at', 'runtime'],
    additionalProperties: false,
    description: 'Evidence of the last sandboxed install-and-run (npm run verify); null before any run.',
  },
  ServedTrust: {
    ...Trust,
    properties: {
      ...Trust.properties,
      verification: ref('TrustVerification'),
      mcp_change: { oneOf: [ref('McpToolChange'), { type: 'null' }] },
      telemetry: ref('TrustTelemetry'),
    },
    description:
      'The trust block with the verification evidence; MCP servers add mcp_change (the newest tool-list change, ' +
      'null before any); the API adds live telemetry counters.',
  },
  RegistryBlock: obj({ canonical: str, catalog: str, mcp: str, contribute: str, note: str }),
  TelemetryProtocol: obj({
    description: str,
    endpoint: str,
    fields: obj({ execution_feedback: str, trend_keyword: str }),
    estimated_tokens_saved_vs_readme: int,
    opt_in: { type: 'boolean' },
  }),
  QualitySignal: obj({
    type: { const: 'execution_outcome' },
    question: str,
    optional_field: str,
    valid_values: { type: 'array', items: { enum: ['yes', 'no', 'partial'] } },
    note: str,
  }),
  MicroTask: obj({ field: { enum: ['install_cmd', 'execute_cmd'] }, hint: str, return_field: str, max_tokens: int }),
  TaxRequired: obj({
    description: str,
    endpoint: str,
    fields: { type: 'object', additionalProperties: str },
    example: ref('TaxPayload'),
  }),
  ListingItem: obj(listingProps),
  UnifiedToolItem: obj({ type: { const: 'tool' }, ...listingProps }),
  ApiListingItem: componentApiListingItem(),
  PartialContract: obj(
    { ...contractProps, action: { type: 'null' }, tax_required: ref('TaxRequired') },
    [...contractRequired, 'tax_required'],
    { description: 'A contract with the action block withheld.' },
  ),
  FullContract: obj(
    { ...contractProps, action: ref('ServedAction'), tax_received: { const: true } },
    [...contractRequired, 'tax_received'],
    { description: 'A contract with the action block, after a valid tax payload.' },
  ),
  ToolList: obj(
    {
      query: str,
      category: { enum: ['', ...PLATFORMS] },
      kind: { enum: [...CONTRACT_KINDS] },
      inputs: { type: 'array', items: { enum: [...HELD_INPUT_ROLES] } },
      formats: { type: 'array', items: str },
      offline: { const: true },
      count: int,
      results: { type: 'array', maxItems: 10, items: ref('ListingItem') },
      note: str,
    },
    ['query', 'category', 'count', 'results', 'note'],
  ),
  Trending: obj({ count: int, results: { type: 'array', maxItems: 20, items: ref('ListingItem') } }),
  OperationSummary: obj({ id: str, method: str, path: str, summary: { type: ['string', 'null'] } }),
  ServiceSearchItem: {
    ...componentApiListingItem(),
    properties: {
      ...(componentApiListingItem().properties as Json),
      operations: {
        type: 'array',
        maxItems: 3,
        items: ref('OperationSummary'),
        description: 'The operations of this API that best match the query.',
      },
    },
    required: [...(componentApiListingItem().required as string[]), 'operations'],
  },
  ServiceSearch: obj({
    query: str,
    count: int,
    results: { type: 'array', maxItems: 10, items: ref('ServiceSearchItem') },
  }),
  Recipe,
  OperationList: obj({
    service_name: str,
    query: str,
    total: int,
    offset: int,
    count: int,
    results: { type: 'array', maxItems: 200, items: ref('Recipe') },
  }),
  UnifiedSearch: obj({
    query: str,
    total: int,
    tools: int,
    apis: int,
    results: { type: 'array', maxItems: 10, items: { oneOf: [ref('UnifiedToolItem'), ref('ApiListingItem')] } },
  }),
  ApiManifest: {
    type: 'object',
    required: ['base_url', 'auth', 'intents'],
    properties: {
      service: str,
      base_url: str,
      auth: { type: 'object', properties: { type: str, header: str }, required: ['type'] },
      intents: { type: 'array', items: { type: 'object' } },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'tools_count', 'apis_count'],
    properties: {
      status: str,
      tools_count: int,
      apis_count: int,
      telemetry: { type: 'object' },
      search_outcomes: {
        type: 'object',
        description:
          'First answers in the field: searches answered to known clients and their reports by rank (README "First answers in the field")',
        properties: {
          searches: int,
          searches_judged: int,
          first_answer_met: int,
          met_within_three: int,
          unlinked_reports: int,
          first_answer_met_share: { type: ['number', 'null'] },
          met_within_three_share: { type: ['number', 'null'] },
          fetched: { type: 'object' },
          judged: { type: 'object' },
        },
      },
    },
  },
  AgentDocument: {
    type: 'object',
    required: ['name', 'version', 'tools_count', 'apis_count', 'endpoints'],
    properties: {
      name: str,
      version: str,
      tools_count: int,
      apis_count: int,
      endpoints: {
        type: 'array',
        items: {
          type: 'object',
          required: ['method', 'path', 'url'],
          properties: { method: str, path: str, url: str, description: str },
        },
      },
    },
  },
  ValidationError: obj({ loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: str, type: str }),
  HTTPValidationError: obj({ detail: { type: 'array', items: ref('ValidationError') } }),
  ErrorDetail: obj({ detail: str }),
  ...adminComponentSchemas,
  ...subregistryComponentSchemas,
};

const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const text = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});
const error = (description: string) => json(ref('ErrorDetail'), description);
const invalid = json(
  ref('HTTPValidationError'),
  'Validation error (FastAPI shape): which parameter or field, and why.',
);
const qParam = (required: boolean, description: string) => ({
  name: 'q',
  in: 'query',
  required,
  schema: QuerySchemas.q,
  description,
});
const aidParam = {
  name: 'aid',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: AID_PATTERN },
  description: 'Tool identifier (lowercase, ends in -v1).',
};
const uaParam = {
  name: 'User-Agent',
  in: 'header',
  required: false,
  schema: str,
  description: 'Counted per tool as a coarse agent class; never stored raw.',
};
const rpcError = (description: string) =>
  json(
    {
      type: 'object',
      required: ['jsonrpc', 'error'],
      properties: {
        jsonrpc: { const: '2.0' },
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'integer' }, message: str },
        },
        id: { type: 'null' },
      },
    },
    description,
  );
// `security: []`: public operations say so explicitly (admin ones name the adminSecret scheme).
const op = (operationId: string, tag: string, summary: string, responses: Json, extra: Json = {}) => ({
  operationId,
  tags: [tag],
  summary,
  security: [],
  ...extra,
  responses,
});

export function openApiDocument(baseUrl: string) {
  const cardOp = (id: string, summary: string) => ({
    get: op(id, 'mcp', summary, { 200: json({ type: 'object' }, 'Server card') }),
  });
  const agentOp = (id: string) => ({
    get: op(id, 'discovery', 'Agent discovery document with live counts', {
      200: json(ref('AgentDocument'), 'Discovery document'),
    }),
  });
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: '1.0.0',
      description: SERVICE_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: 'tools' },
      { name: 'apis' },
      { name: 'search' },
      { name: 'discovery' },
      { name: 'mcp' },
      { name: 'admin' },
      { name: 'contribute' },
      { name: 'mcp-registry', description: 'The MCP servers of the catalog in the official MCP registry read API' },
    ],
    paths: {
      '/api/v1/tools': {
        get: op(
          'listTools',
          'tools',
          'Search tools by keyword or intent; empty q lists the top 10 by reliability',
          { 200: json(ref('ToolList'), 'At most 10 listing items, never the action block'), 422: invalid },
          {
            parameters: [
              qParam(false, 'Searched in aid, name, task, tags, commands, platform and schemas.'),
              { name: 'category', in: 'query', required: false, schema: QuerySchemas.category },
              { name: 'kind', in: 'query', required: false, schema: QuerySchemas.kind },
              {
                name: 'inputs',
                in: 'query',
                required: false,
                style: 'form',
                explode: false,
                schema: QuerySchemas.inputs,
              },
              {
                name: 'formats',
                in: 'query',
                required: false,
                style: 'form',
                explode: false,
                schema: QuerySchemas.formats,
              },
              { name: 'offline', in: 'query', required: false, schema: QuerySchemas.offline },
            ],
          },
        ),
      },
      '/api/v1/tools/trending': {
        get: op(
          'trendingTools',
          'tools',
          'Top tools by reliability_score',
          { 200: json(ref('Trending'), 'Listing items'), 422: invalid },
          {
            parameters: [{ name: 'limit', in: 'query', required: false, schema: QuerySchemas.limit }],
          },
        ),
      },
      '/api/v1/tools/{aid}': {
        get: op(
          'getTool',
          'tools',
          'One contract, action withheld, with what to send to unlock it',
          { 200: json(ref('PartialContract'), 'Partial contract'), 404: error('Unknown or malformed aid') },
          { parameters: [aidParam, uaParam] },
        ),
        post: op(
          'payToolTax',
          'tools',
          'Send a tax payload (telemetry) to receive the full contract',
          {
            200: json(ref('FullContract'), 'Full contract with action; the report was recorded'),
            402: json(ref('PartialContract'), 'No payload: partial contract plus tax_required'),
            404: error('Unknown or malformed aid'),
            413: error('Body over 64 KB'),
            415: error('Body is not JSON'),
            422: invalid,
            429: {
              ...error('Too many reports from this client for this tool'),
              headers: { 'Retry-After': { schema: { type: 'integer' } } },
            },
            503: error('The report could not be stored; nothing was recorded'),
          },
          {
            parameters: [aidParam, uaParam],
            requestBody: {
              required: false,
              content: {
                'application/json': {
                  schema: { oneOf: [ref('TaxPayload'), ref('WrappedTaxPayload'), { type: 'null' }] },
                },
              },
            },
          },
        ),
      },
      '/api/v1/tools/{aid}/instructions': {
        get: op(
          'toolInstructions',
          'tools',
          'Plain-text agent instructions (MIT or Apache-2.0 tools only)',
          {
            200: text(
              'text/plain',
              'Install, execute (placeholders explained), schemas, telemetry protocol, canonical link',
            ),
            404: error('Unknown tool, or its licence does not permit instructions'),
          },
          { parameters: [aidParam] },
        ),
      },
      '/api/v1/services/search': {
        get: op(
          'searchServices',
          'apis',
          'Search compiled web-API manifests by intent',
          { 200: json(ref('ServiceSearch'), 'At most 10 API listing items'), 422: invalid },
          { parameters: [qParam(true, 'Intent phrase.')] },
        ),
      },
      '/api/v1/services/{service_name}/mai-api.json': {
        get: op(
          'getServiceManifest',
          'apis',
          'One compiled API manifest',
          { 200: json(ref('ApiManifest'), 'The manifest'), 404: error('Unknown service') },
          {
            parameters: [{ name: 'service_name', in: 'path', required: true, schema: str }],
          },
        ),
      },
      '/api/v1/services/{service_name}/operations': {
        get: op(
          'listServiceOperations',
          'apis',
          'The operation recipes of one API: ranked for an intent with q, else all of them a page at a time',
          { 200: json(ref('OperationList'), 'Recipes'), 404: error('Unknown service'), 422: invalid },
          {
            parameters: [
              { name: 'service_name', in: 'path', required: true, schema: str },
              qParam(false, 'Intent phrase; without it, every operation in definition order.'),
              { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } },
              { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
            ],
          },
        ),
      },
      '/api/v1/services/{service_name}/operations/{operation_id}': {
        get: op(
          'getServiceOperation',
          'apis',
          'One operation recipe: method, path, content type, every parameter with its location, auth',
          { 200: json(ref('Recipe'), 'The recipe'), 404: error('Unknown service or operation') },
          {
            parameters: [
              { name: 'service_name', in: 'path', required: true, schema: str },
              { name: 'operation_id', in: 'path', required: true, schema: str },
            ],
          },
        ),
      },
      '/api/v1/search': {
        get: op(
          'searchAll',
          'search',
          'Unified search: up to 5 tools, then up to 5 APIs',
          { 200: json(ref('UnifiedSearch'), 'Tagged results'), 422: invalid },
          { parameters: [qParam(true, 'Keywords or intent phrase.')] },
        ),
      },
      '/health': {
        get: op('health', 'discovery', 'Status, catalog counts, telemetry totals, first answers in the field', {
          200: json(ref('Health'), 'Health'),
        }),
      },
      '/agent.json': agentOp('agentJson'),
      '/.well-known/agent.json': agentOp('wellKnownAgentJson'),
      '/.well-known/mcp.json': agentOp('wellKnownMcpJson'),
      '/mcp': {
        post: op(
          'mcp',
          'mcp',
          'Model Context Protocol endpoint (Streamable HTTP, stateless, JSON responses); GET and DELETE answer 405',
          {
            200: json(
              { type: ['object', 'array'], items: { type: 'object' } },
              'JSON-RPC response(s): tools search_tools, get_tool, report_outcome, get_trending, search_apis, get_api_manifest; resources catalog://tools/{aid}, catalog://apis/{service_name}',
            ),
            202: { description: 'Notifications accepted' },
            400: rpcError('Malformed JSON or JSON-RPC message, or an unsupported MCP-Protocol-Version'),
            406: rpcError('Accept must list application/json and text/event-stream'),
            413: rpcError('Body over 64 KB'),
            415: rpcError('Body is not application/json'),
          },
          {
            parameters: [
              {
                name: 'MCP-Protocol-Version',
                in: 'header',
                required: false,
                schema: str,
                description: 'Negotiated at initialize; 2025-11-25, 2025-06-18, 2025-03-26 or 2024-11-05.',
              },
            ],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: ['object', 'array'],
                    items: { type: 'object' },
                    description: 'A JSON-RPC 2.0 request or notification, or a batch of them.',
                  },
                },
              },
            },
          },
        ),
      },
      '/.well-known/mcp/server-card.json': cardOp(
        'mcpServerCard',
        'MCP server card (SEP-1649 draft): server info, transport, capabilities, tools',
      ),
      '/.well-known/mcp/server-card': cardOp('mcpServerCardNoExt', 'The same MCP server card'),
      '/mcp/server-card': cardOp('mcpServerCardV2', 'MCP server card (SEP-2127): name, version, remotes'),
      '/openapi.json': {
        get: op('openapi', 'discovery', 'This document', { 200: json({ type: 'object' }, 'OpenAPI 3.1 document') }),
      },
      '/': {
        get: op('htmlIndex', 'discovery', 'Plain HTML index of all tools (built into dist/)', {
          200: text('text/html', 'HTML index'),
        }),
      },
      '/llms.txt': {
        get: op('llmsTxt', 'discovery', 'Plain-text catalog (built into dist/)', {
          200: text('text/plain', 'llms.txt'),
        }),
      },
      '/robots.txt': {
        get: op('robotsTxt', 'discovery', 'Crawler rules (built into dist/)', {
          200: text('text/plain', 'robots.txt'),
        }),
      },
      '/sitemap.xml': {
        get: op('sitemap', 'discovery', 'XML sitemap (built into dist/)', { 200: text('application/xml', 'Sitemap') }),
      },
      ...adminPaths,
      ...subregistryPaths,
    },
    components: { schemas: componentSchemas, securitySchemes: ADMIN_SECURITY_SCHEMES },
  };
}
