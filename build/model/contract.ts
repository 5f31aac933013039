// The tool contract: one TypeBox definition gives the TypeScript types, the runtime validator,
// catalog/schema/tool.schema.json and the OpenAPI components, so they can never disagree.
import Type from 'typebox';

/** Platforms a contract can come from; `catalog` = taken from another instance of this service. */
export const PLATFORMS = ['github', 'pypi', 'npm', 'catalog'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Top-level schema-object types observed in the original service (spec 2.2). */
export const SCHEMA_TYPES = [
  'string',
  'json',
  'object',
  'array',
  'url',
  'columnar',
  'coroutine',
  'function',
  'any',
  'image',
  'audio',
] as const;

/** Lifecycle of a contract; only `active` was ever observed, the others are our decision (README). */
export const STATUSES = ['active', 'degraded', 'review', 'deprecated', 'dead'] as const;

/** What a contract describes: a tool run by a command (the default when absent), or an MCP server. */
export const CONTRACT_KINDS = ['tool', 'mcp_server'] as const;
export type ContractKind = (typeof CONTRACT_KINDS)[number];

/** What an MCP server's environment variable holds (server.json `format`). */
export const MCP_ENV_FORMATS = ['string', 'number', 'boolean', 'filepath'] as const;

/** How an MCP client reaches the server (names as in the official registry's server.json). */
export const MCP_TRANSPORTS = ['stdio', 'streamable-http', 'sse'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * What a placeholder holds, so a machine can fill it: text to pass as is, a file the command reads,
 * a file or folder it writes, a URL, a JSON text, a number, or an option (a mode, a model name …).
 */
export const INPUT_ROLES = [
  'text',
  'input_file',
  'output_file',
  'output_dir',
  'url',
  'json',
  'number',
  'option',
] as const;
export type InputRole = (typeof INPUT_ROLES)[number];

/** Placeholders a command writes to; `output_schema.target` may name one of them. */
export const OUTPUT_ROLES: readonly InputRole[] = ['output_file', 'output_dir'];

export const AID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,126}-v1$';

const nullable = <T>(type: 'string' | 'integer' | 'number', extra: Record<string, unknown> = {}) =>
  Type.Unsafe<T | null>({ type: [type, 'null'], ...extra });

const SubSchema = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 40 })),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    format: Type.Optional(
      Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 80 }), { maxItems: 50 })]),
    ),
    default: Type.Optional(Type.Unknown()),
    enum: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
    items: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    role: Type.Optional(Type.Enum([...INPUT_ROLES], { description: 'What the placeholder of this name holds.' })),
    examples: Type.Optional(
      Type.Array(Type.Unknown(), { minItems: 1, maxItems: 10, description: 'Values that work.' }),
    ),
  },
  { additionalProperties: false },
);

const schemaObjectProperties = {
  type: Type.Enum([...SCHEMA_TYPES]),
  format: Type.Optional(
    Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 80 }), { maxItems: 50 })]),
  ),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  properties: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), SubSchema)),
  required: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
};

export const SchemaObject = Type.Object(schemaObjectProperties, {
  additionalProperties: false,
  description: 'Schema object (spec 2.2). May be only {type}.',
});
export type SchemaObject = Type.Static<typeof SchemaObject>;

export const OutputSchemaObject = Type.Object(
  {
    ...schemaObjectProperties,
    target: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        maxLength: 100,
        description: 'Where the result goes: "stdout", or the name of an output_file / output_dir placeholder.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Schema object of the result, with where it goes.' },
);

export const Identity = Type.Object(
  {
    aid: Type.String({
      pattern: AID_PATTERN,
      description: 'Tool identifier: lowercase, ends in -v1, equals the file name.',
    }),
    name: Type.String({ minLength: 1, maxLength: 214 }),
    version: nullable<string>('string', { maxLength: 100 }),
    task: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'What the tool does, one sentence.' }),
    ),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 30 })),
    platform: Type.Enum([...PLATFORMS]),
    kind: Type.Optional(
      Type.Enum([...CONTRACT_KINDS], { description: 'tool (the default when absent) or mcp_server.' }),
    ),
    license: nullable<string>('string', {
      maxLength: 200,
      description: 'SPDX license expression, or null when unknown.',
    }),
  },
  { additionalProperties: false },
);

/** One tool an MCP server lists (tools/list), as read by a real handshake in the sandbox. */
export const McpTool = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    input_schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    hash: Type.String({
      pattern: '^sha256:[0-9a-f]{64}$',
      description: 'sha256 of the canonical JSON of name, description and input schema: a change means a new tool.',
    }),
    flags: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: 20,
        description: 'Why the description looks like it asks the model to act outside the tool (tool poisoning).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type McpTool = Type.Static<typeof McpTool>;

/** An environment variable the server reads (server.json environmentVariables). */
export const McpEnvVar = Type.Object(
  {
    name: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    is_required: Type.Optional(Type.Boolean()),
    is_secret: Type.Optional(Type.Boolean()),
    format: Type.Optional(
      Type.Enum([...MCP_ENV_FORMATS], {
        description: 'What the value is (server.json format): text, a number, true/false, or a path on the machine.',
      }),
    ),
    default: Type.Optional(Type.String({ maxLength: 500, description: 'A valid value used when none is set.' })),
    placeholder: Type.Optional(
      Type.String({ maxLength: 200, description: 'An example of the form the value takes (guidance, not a value).' }),
    ),
    choices: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50, description: 'The values it may take.' }),
    ),
  },
  { additionalProperties: false },
);
export type McpEnvVar = Type.Static<typeof McpEnvVar>;

/** What an MCP-server contract adds to logic: how to reach the server and the tools it really lists. */
export const McpServer = Type.Object(
  {
    transport: Type.Enum([...MCP_TRANSPORTS]),
    url: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2000,
        description: 'Endpoint of a remote server.',
      }),
    ),
    registry_name: Type.Optional(
      Type.String({
        pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$',
        maxLength: 200,
        description: 'Name in the official MCP registry (reverse-DNS namespace / server), when it has one.',
      }),
    ),
    arguments: Type.Optional(
      Type.Array(Type.String({ maxLength: 500 }), { maxItems: 30, description: 'Arguments after the command.' }),
    ),
    env_vars: Type.Optional(Type.Array(McpEnvVar, { maxItems: 50 })),
    server_info: Type.Optional(
      Type.Object(
        { name: Type.String({ maxLength: 200 }), version: Type.Optional(Type.String({ maxLength: 100 })) },
        { additionalProperties: false, description: 'What the server called itself in the handshake.' },
      ),
    ),
    tools_read_at: nullable<string>('string', {
      format: 'date-time',
      description: 'When the tool list was read by a handshake; null before any.',
    }),
    tools: Type.Array(McpTool, { maxItems: 500 }),
  },
  { additionalProperties: false },
);
export type McpServer = Type.Static<typeof McpServer>;

export const Logic = Type.Object(
  { input_schema: SchemaObject, output_schema: OutputSchemaObject, mcp: Type.Optional(McpServer) },
  { additionalProperties: false },
);

export const Trust = Type.Object(
  {
    reliability_score: Type.Number({ minimum: 0, maximum: 1 }),
    latency_ms: nullable<number>('integer', { minimum: 0 }),
    status: Type.Enum([...STATUSES]),
    popularity: Type.Optional(
      nullable<number>('number', {
        minimum: 0,
        maximum: 1,
        description:
          'Download percentile within its platform (1 = most downloaded); null when unknown. A search factor ' +
          'of its own, apart from reliability_score.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** What the command needs beyond a fresh project folder or virtual environment. */
export const Requires = Type.Object(
  {
    network: Type.Optional(Type.Boolean({ description: 'The execute command needs the internet (or a server).' })),
    env: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$', maxLength: 100 }), {
        maxItems: 20,
        uniqueItems: true,
        description: 'Environment variables that carry credentials.',
      }),
    ),
    runtime: Type.Optional(
      Type.Object(
        {
          node: Type.Optional(Type.String({ maxLength: 40, pattern: '^>=\\d+(\\.\\d+){0,2}$' })),
          python: Type.Optional(Type.String({ maxLength: 40, pattern: '^>=\\d+(\\.\\d+){0,2}$' })),
        },
        { additionalProperties: false, description: 'Minimum runtime versions, e.g. {"node": ">=22"}.' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Requires = Type.Static<typeof Requires>;

const actionProperties = {
  source_url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }),
  install_cmd: nullable<string>('string', { minLength: 1, maxLength: 500 }),
  execute_cmd: nullable<string>('string', { minLength: 1, maxLength: 1000 }),
  requires: Type.Optional(Requires),
};

export const Action = Type.Object(actionProperties, { additionalProperties: false });

const argv = () =>
  Type.Unsafe<string[] | null>({
    type: ['array', 'null'],
    items: { type: 'string' },
    description: 'The command as an argument vector (no shell); placeholders are filled per element.',
  });

/** The action block as served in the full contract: the stored one plus each command as argv. */
export const ServedAction = Type.Object(
  { ...actionProperties, install_argv: argv(), execute_argv: argv() },
  { additionalProperties: false },
);

export const VERIFICATION_STATUSES = ['passed', 'failed', 'unverifiable'] as const;
export const VERIFICATION_LEVELS = ['runs', 'loads'] as const;

export const Verification = Type.Object(
  {
    status: Type.Enum([...VERIFICATION_STATUSES]),
    level: Type.Optional(
      Type.Enum([...VERIFICATION_LEVELS], {
        description:
          'runs: did its task offline; loads: needs the internet or an account, so only installed and loaded.',
      }),
    ),
    reason: Type.String({ maxLength: 1000 }),
    checked_at: Type.String({ format: 'date-time' }),
    runtime: nullable<string>('string', { maxLength: 40, description: 'e.g. "node 22.23", "python 3.11"' }),
    install_ms: nullable<number>('integer', { minimum: 0 }),
    execute_ms: nullable<number>('integer', { minimum: 0 }),
  },
  {
    additionalProperties: false,
    description: 'Outcome of installing and running the commands in a sandbox (npm run verify).',
  },
);
export type Verification = Type.Static<typeof Verification>;

/** A difference between two tool lists of the same MCP server (a rug pull looks like this). */
export const McpToolChange = Type.Object(
  {
    detected_at: Type.String({ format: 'date-time' }),
    added: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 }),
    removed: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 }),
    changed: Type.Array(
      Type.Object(
        {
          name: Type.String({ maxLength: 200 }),
          before: Type.Object(
            { hash: Type.String({ maxLength: 80 }), description: Type.Optional(Type.String({ maxLength: 10000 })) },
            { additionalProperties: false },
          ),
          after: Type.Object(
            { hash: Type.String({ maxLength: 80 }), description: Type.Optional(Type.String({ maxLength: 10000 })) },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500 },
    ),
    reviewed_at: Type.Optional(nullable<string>('string', { format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type McpToolChange = Type.Static<typeof McpToolChange>;

export const Record = Type.Object(
  {
    verified: Type.Optional(Type.Boolean({ default: true })),
    verification: Type.Optional(Verification),
    reliability_calculated_at: Type.Optional(nullable<string>('string', { format: 'date-time' })),
    popularity_source: Type.Optional(
      nullable<string>('string', {
        maxLength: 200,
        description: 'Where trust.popularity comes from, e.g. "npm downloads API, last month".',
      }),
    ),
    popularity_measured_at: Type.Optional(nullable<string>('string', { format: 'date-time' })),
    mcp_tool_changes: Type.Optional(
      Type.Array(McpToolChange, { maxItems: 50, description: 'Tool-list changes found by verification, newest last.' }),
    ),
  },
  { additionalProperties: false, description: 'Bookkeeping; never served as part of the contract.' },
);

export const ToolContract = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    identity: Identity,
    logic: Logic,
    trust: Trust,
    action: Action,
    record: Type.Optional(Record),
  },
  { additionalProperties: false, title: 'Tool contract' },
);

export type ToolContract = Type.Static<typeof ToolContract>;
export type Identity = Type.Static<typeof Identity>;
export type Logic = Type.Static<typeof Logic>;
export type Trust = Type.Static<typeof Trust>;
export type Action = Type.Static<typeof Action>;
export type ServedAction = Type.Static<typeof ServedAction>;
export type OutputSchemaObject = Type.Static<typeof OutputSchemaObject>;
export type ContractRecord = Type.Static<typeof Record>;
