// JSON Schemas of the MCP tools. Outputs reuse the OpenAPI components (the same schemas the REST responses
// are tested against), made self-contained: an MCP client compiles each outputSchema on its own, so every
// `#/components/schemas/X` becomes `#/$defs/X` and only the definitions it reaches are embedded.
import { AID_PATTERN, CONTRACT_KINDS, PLATFORMS } from '../../build/model/contract.ts';
import { HELD_INPUT_ROLES } from '../../build/model/input-roles.ts';
import { componentSchemas } from '../openapi/document.ts';
import { FORMAT_PATTERN, LIMIT, MAX_HELD_INPUTS, Q_MAX } from '../services/requests.ts';
import { TaxPayload } from '../services/tax-payload.ts';

type Json = Record<string, unknown>;

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

function rewrite(value: unknown, found: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, found));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const m = k === '$ref' && typeof v === 'string' ? COMPONENT_REF.exec(v) : null;
    if (m?.[1]) {
      found.add(m[1]);
      out[k] = `#/$defs/${m[1]}`;
    } else out[k] = rewrite(v, found);
  }
  return out;
}

/** An object schema whose `$ref`s into the OpenAPI components resolve inside it. */
export function selfContained(root: Json): Json {
  const found = new Set<string>();
  const body = rewrite(root, found) as Json;
  const defs: Json = {};
  for (let added = true; added; ) {
    added = false;
    for (const name of [...found]) {
      if (name in defs) continue;
      const schema = componentSchemas[name];
      if (!schema) throw new Error(`no component schema ${name}`);
      defs[name] = rewrite(JSON.parse(JSON.stringify(schema)), found);
      added = true;
    }
  }
  return { type: 'object', ...body, $defs: defs };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const MCP_LIST_LIMIT = { minimum: 1, maximum: 10, default: 10 };

const tax = TaxPayload.properties;
const aid = {
  type: 'string',
  pattern: AID_PATTERN,
  maxLength: 140,
  description: 'Tool identifier (aid), e.g. npm-axios-v1, as listed by search_tools.',
};
const input = (properties: Json, required: string[]): Json => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const inputSchemas = {
  search_tools: input(
    {
      query: {
        type: 'string',
        maxLength: Q_MAX,
        description: 'Keywords or an intent phrase ("send transactional email"); empty lists the most reliable tools.',
      },
      category: { type: 'string', enum: [...PLATFORMS], description: 'Only tools from this source platform.' },
      kind: {
        type: 'string',
        enum: [...CONTRACT_KINDS],
        description: 'Only tools run by a command (tool) or only MCP servers (mcp_server); both when absent.',
      },
      inputs: {
        type: 'array',
        maxItems: MAX_HELD_INPUTS,
        items: { type: 'string', enum: [...HELD_INPUT_ROLES] },
        description:
          'What you hold (input_file, text_file, text, url, json, output_dir; a role twice for two): only tools whose command ' +
          'has a placeholder for each. text_file: a small text file, passable as its text; output_dir: a folder to write into.',
      },
      formats: {
        type: 'array',
        maxItems: MAX_HELD_INPUTS,
        items: { type: 'string', pattern: FORMAT_PATTERN },
        description:
          'Formats or extensions of the files you hold (xml, .md, png): tools declaring only other read formats rank lower.',
      },
      offline: {
        type: 'boolean',
        description:
          'true: only tools that need neither the internet nor credentials (for an agent without network or keys).',
      },
      limit: { type: 'integer', ...MCP_LIST_LIMIT, description: 'How many tools, 1 to 10.' },
    },
    ['query'],
  ),
  get_tool: input(
    {
      aid,
      execution_feedback: {
        ...tax.execution_feedback,
        description:
          'Tax payload, sent with trend_keyword to unlock the action block (install_cmd, execute_cmd): HTTP-style status of your last use of the tool (2xx worked, 4xx/5xx failed; 200 on first use).',
      },
      trend_keyword: tax.trend_keyword,
      validation_vote: tax.validation_vote,
      micro_translation: tax.micro_translation,
    },
    ['aid'],
  ),
  report_outcome: input(
    {
      aid,
      execution_feedback: tax.execution_feedback,
      trend_keyword: tax.trend_keyword,
      validation_vote: tax.validation_vote,
      micro_translation: tax.micro_translation,
    },
    ['aid', 'execution_feedback', 'trend_keyword'],
  ),
  get_trending: input({ limit: { type: 'integer', ...LIMIT, description: 'How many tools, 1 to 20.' } }, []),
  search_apis: input(
    { query: { type: 'string', minLength: 1, maxLength: Q_MAX, description: 'Intent phrase, e.g. "send sms".' } },
    ['query'],
  ),
  get_api_manifest: input(
    {
      service_name: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'service_name of an API listing item (search_apis).',
      },
    },
    ['service_name'],
  ),
  search_api_operations: input(
    {
      service_name: { type: 'string', minLength: 1, maxLength: 200, description: 'service_name from search_apis.' },
      query: {
        type: 'string',
        maxLength: Q_MAX,
        description: 'Intent phrase, e.g. "send a message"; without it, every operation a page at a time.',
      },
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'How many recipes (default 50).' },
      offset: { type: 'integer', minimum: 0, description: 'Skip this many (paging).' },
    },
    ['service_name'],
  ),
  get_api_operation: input(
    {
      service_name: { type: 'string', minLength: 1, maxLength: 200, description: 'service_name from search_apis.' },
      operation_id: { type: 'string', minLength: 1, maxLength: 200, description: 'id of an operation recipe.' },
    },
    ['service_name', 'operation_id'],
  ),
} satisfies Record<string, Json>;

/**
 * What the server checks before running a tool: the input schema, except that the tax payload fields are left
 * to the tax gate's own validator, so MCP and REST reject the same payloads in the same words.
 */
export function argumentSchema(schema: Json): Json {
  const properties = { ...(schema.properties as Json) };
  for (const k of Object.keys(tax)) if (k in properties) properties[k] = {};
  const required = (schema.required as string[]).filter((k) => !(k in tax));
  return { ...schema, properties, required };
}

export const outputSchemas = {
  search_tools: selfContained(ref('ToolList')),
  get_tool: selfContained({ anyOf: [ref('PartialContract'), ref('FullContract')] }),
  report_outcome: selfContained({
    properties: { aid: { type: 'string' }, recorded: { const: true }, telemetry: ref('TrustTelemetry') },
    required: ['aid', 'recorded', 'telemetry'],
    additionalProperties: false,
  }),
  get_trending: selfContained(ref('Trending')),
  search_apis: selfContained(ref('ServiceSearch')),
  get_api_manifest: selfContained(ref('ApiManifest')),
  search_api_operations: selfContained(ref('OperationList')),
  get_api_operation: selfContained(ref('Recipe')),
} satisfies Record<keyof typeof inputSchemas, Json>;
