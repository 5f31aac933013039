// The query parameters and request bodies the API accepts, as TypeBox schemas: routes validate with them (validation.ts) and the
// OpenAPI document (api/openapi/) shows them, so the two cannot drift. Body size limits live beside them.
import Type from 'typebox';
import { SNAKE_PATTERN } from '../../build/apis/manifest.ts';
import { AID_PATTERN, CONTRACT_KINDS, PLATFORMS, ToolContract } from '../../build/model/contract.ts';
import { HELD_INPUT_ROLES } from '../../build/model/input-roles.ts';
import { COMMAND_FIELDS } from '../writes/catalog-writes.ts';

export const INGEST_BODY_LIMIT = 1024 * 1024;
/** update-trust: 10,000 entries of about 70 bytes each. */
export const UPDATE_TRUST_BODY_LIMIT = 2 * 1024 * 1024;
export const CONTRIBUTE_BODY_LIMIT = 256 * 1024;
/** A definition may be 5 MB (the upstream limit too); the wrapper adds a little. */
export const COMPILE_BODY_LIMIT = 5 * 1024 * 1024 + 16 * 1024;
/** A manifest is a few KB; with its recipes (`operations`) an ingested file may be a few MB. */
export const API_INGEST_LIMIT = 8 * 1024 * 1024;
export const MAX_TRUST_ENTRIES = 10_000;

export const UpdateTrustRequest = Type.Object(
  {
    scores: Type.Array(
      Type.Object(
        {
          aid: Type.String({ minLength: 1, maxLength: 200 }),
          reliability_score: Type.Number({ minimum: 0, maximum: 1 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_TRUST_ENTRIES },
    ),
    calculated_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the scores were computed; default now.' }),
    ),
  },
  { additionalProperties: false, title: 'UpdateTrustRequest' },
);

export const McpReviewedRequest = Type.Object(
  {
    aid: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The MCP-server contract whose changes were reviewed.',
    }),
  },
  { additionalProperties: false, title: 'McpReviewedRequest' },
);

export const AcceptRequest = Type.Object(
  {
    field: Type.Optional(
      Type.Enum([...COMMAND_FIELDS], { description: 'For a suggestion that names no field: which command it is.' }),
    ),
  },
  { additionalProperties: false, title: 'AcceptRequest' },
);

export const TranslateRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'A GitHub repository, PyPI project or npm package page, an MCP registry server (.../v0.1/servers/<name>/versions/<version|latest>), or .../api/v1/tools/<aid> on an allowed peer catalog.',
    }),
  },
  { additionalProperties: false, title: 'TranslateRequest' },
);

export const ContributionNote = Type.String({
  maxLength: 1000,
  description: 'Why, or where the information comes from.',
});

export const ProposedContract = Type.Object(
  { contract: ToolContract, note: Type.Optional(ContributionNote) },
  { additionalProperties: false, title: 'ProposedContract' },
);

export const CommandFix = Type.Object(
  {
    aid: Type.String({ pattern: AID_PATTERN }),
    field: Type.Enum([...COMMAND_FIELDS]),
    value: Type.String({ minLength: 1, maxLength: 1000, description: 'The one-line command.' }),
    note: Type.Optional(ContributionNote),
  },
  { additionalProperties: false, title: 'CommandFix' },
);

export const ContributionRequest = Type.Union([ProposedContract, CommandFix], { title: 'ContributionRequest' });

export const MAX_VERIFY_AIDS = 10_000;
/** 10,000 aids of up to 130 characters. */
export const VERIFY_BODY_LIMIT = 1536 * 1024;

export const VerifyRequest = Type.Object(
  {
    aids: Type.Optional(
      Type.Array(Type.String({ pattern: AID_PATTERN }), {
        minItems: 1,
        maxItems: MAX_VERIFY_AIDS,
        description: 'These tools.',
      }),
    ),
    all: Type.Optional(
      Type.Literal(true, { description: 'Every tool of the catalog (with platform: of that platform).' }),
    ),
    platform: Type.Optional(Type.Enum([...PLATFORMS], { description: 'Every tool of this platform.' })),
  },
  { additionalProperties: false, title: 'VerifyRequest' },
);

export const CompileApiRequest = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description:
          'URL of an OpenAPI 2.0/3.x JSON definition on an allowed host (APIS_DEFINITION_HOSTS; default api.apis.guru, raw.githubusercontent.com).',
      }),
    ),
    definition: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: 'The OpenAPI 2.0/3.x definition itself (JSON, at most 5 MB).' },
      ),
    ),
    service_name: Type.Optional(
      Type.String({
        pattern: SNAKE_PATTERN,
        maxLength: 100,
        description:
          'Default: from info.x-providerName / x-serviceName, else the API host (`api.stripe.com` → stripe_api).',
      }),
    ),
    source_url: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2000,
        description: 'Where the definition comes from; default the url, else its APIs.guru URL, else base_url.',
      }),
    ),
  },
  { additionalProperties: false, title: 'CompileApiRequest', description: 'Exactly one of url and definition.' },
);

export const Q_MAX = 500;

/** A held file's format or extension (GET /api/v1/tools?formats=…): "md", ".XML", "tar.gz". */
export const FORMAT_PATTERN = '^\\.?[A-Za-z0-9]{1,16}(?:\\.[A-Za-z0-9]{1,16}){0,2}$';

/** Held inputs a search may name (GET /api/v1/tools?inputs=…). */
export const MAX_HELD_INPUTS = 8;

export const LIMIT = { minimum: 1, maximum: 20, default: 10 };

export const QuerySchemas = {
  q: Type.String({
    maxLength: Q_MAX,
    description: 'Keywords or an intent phrase ("send transactional email"). Control characters are removed.',
  }),
  category: Type.Enum([...PLATFORMS], { description: 'Only tools from this source platform.' }),
  kind: Type.Enum([...CONTRACT_KINDS], {
    description: 'Only tools run by a command (tool) or only MCP servers (mcp_server); both when absent.',
  }),
  limit: Type.Integer({ ...LIMIT, description: 'How many tools, 1 to 20.' }),
  inputs: Type.Array(Type.Enum([...HELD_INPUT_ROLES]), {
    maxItems: MAX_HELD_INPUTS,
    description:
      'What you hold, comma-separated (input_file, text_file, text, url, json, output_dir; repeat a role for two of ' +
      'them): only tools whose command has a placeholder for each. "input_file,input_file" finds tools that take ' +
      'two files; text_file is a small text file you can also pass as its text to a command that takes a text or ' +
      'JSON (ranked below commands that read it as a file); output_dir is a folder the results must be written into.',
  }),
  formats: Type.Array(Type.String({ pattern: FORMAT_PATTERN }), {
    maxItems: MAX_HELD_INPUTS,
    description:
      'Formats or extensions of the files you hold, comma-separated (xml, .md, png): tools that declare the formats ' +
      'they read and read none of these rank lower (an XML file is no input for a YAML reader). Ranking only; "txt" ' +
      'and "text" say nothing and are ignored.',
  }),
  offline: Type.Boolean({
    default: false,
    description:
      'true: only tools whose command needs neither the internet (or a server) nor credentials ' +
      '(action.requires.network, action.requires.env), for an agent without network or without keys.',
  }),
};
