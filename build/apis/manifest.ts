// The API manifest: a compact, agent-ready summary of one web API, compiled from its OpenAPI definition
// (catalog/apis/<service_name>.json). One TypeBox definition gives the TypeScript types, the runtime
// validator and catalog/schema/api.schema.json, so they can never disagree.
import Type from 'typebox';
import { createAjv, type FieldError, formatAjvErrors } from '../model/validate-contract.ts';

/** The fixed category list; build/apis/categories.ts maps the directory's own categories onto it. */
export const API_CATEGORIES = [
  'payments',
  'email',
  'messaging',
  'maps',
  'ai',
  'cloud',
  'storage',
  'developer_tools',
  'analytics',
  'social',
  'media',
  'commerce',
  'finance',
  'security',
  'productivity',
  'data',
  'other',
] as const;
export type ApiCategory = (typeof API_CATEGORIES)[number];

export const AUTH_TYPES = ['apikey', 'bearer', 'basic', 'oauth2', 'sigv4', 'none'] as const;
export const SCHEME_TYPES = ['apikey', 'bearer', 'basic', 'oauth2', 'sigv4'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const PARAM_TYPES = ['string', 'number', 'boolean', 'array', 'object'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];

export const MAX_INTENTS = 20;
export const MAX_TAGS = 8;
export const MAX_RETURNS_WORDS = 10;

/** lowercase snake_case: letters and digits in words joined by single underscores. */
export const SNAKE_PATTERN = '^[a-z0-9]+(_[a-z0-9]+)*$';
/** At most MAX_RETURNS_WORDS words separated by single spaces (the compiler normalises whitespace). */
export const RETURNS_PATTERN = `^\\S+( \\S+){0,${MAX_RETURNS_WORDS - 1}}$`;

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Url = Type.String({ minLength: 1, maxLength: 500 });

/** One security scheme in force, with where its credential goes. */
export const AuthScheme = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The scheme name in the definition; recipes refer to it.',
    }),
    type: Type.Enum([...SCHEME_TYPES]),
    in: Type.Optional(Type.Enum(['header', 'query', 'cookie'])),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Header, query parameter or cookie name.' }),
    ),
    format: Type.Optional(
      Type.String({ maxLength: 80, description: 'The value to send: `Bearer {token}`, `{key}` …' }),
    ),
    service: Type.Optional(Type.String({ maxLength: 100, description: 'sigv4: the signing service name.' })),
    region: Type.Optional(Type.String({ maxLength: 100, description: 'sigv4: the default signing region.' })),
    flow: Type.Optional(Type.String({ maxLength: 40, description: 'oauth2: the flow the URLs belong to.' })),
    authorization_url: Type.Optional(Url),
    token_url: Type.Optional(Url),
    openid_url: Type.Optional(Url),
    scopes: Type.Optional(
      Type.Array(Name, { maxItems: 10, description: 'oauth2: the first scopes in the definition.' }),
    ),
    scopes_total: Type.Optional(
      Type.Integer({ minimum: 0, description: 'oauth2: how many scopes there are when more are defined.' }),
    ),
    inferred: Type.Optional(
      Type.Literal(true, { description: 'No scheme declared; a key parameter most operations take.' }),
    ),
  },
  { additionalProperties: false },
);

export const Auth = Type.Object(
  {
    type: Type.Enum([...AUTH_TYPES], {
      description: 'The default scheme type (first scheme of the first requirement).',
    }),
    header: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Header carrying the default credential.' }),
    ),
    query: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Query parameter carrying the default key.' }),
    ),
    schemes: Type.Optional(Type.Array(AuthScheme, { maxItems: 30, description: 'Every scheme in force.' })),
    requirements: Type.Optional(
      Type.Array(Type.Array(Name), {
        maxItems: 30,
        description: 'Alternatives by default; each lists scheme ids sent together ([] = anonymous allowed).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A variable of a templated base_url. */
export const UrlVariable = Type.Object(
  {
    default: Type.Optional(Type.String({ maxLength: 500 })),
    enum: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 40 })),
    description: Type.Optional(Type.String({ maxLength: 200 })),
    placeholder: Type.Optional(
      Type.Literal(true, { description: 'The definition names a sample value, not a real one.' }),
    ),
  },
  { additionalProperties: false },
);

export const Intent = Type.Object(
  {
    id: Type.String({
      pattern: SNAKE_PATTERN,
      maxLength: 80,
      description: 'snake_case, from operationId or method + path; unique within the manifest.',
    }),
    method: Type.Enum([...HTTP_METHODS]),
    path: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Path template relative to base_url, as in the definition.',
    }),
    params: Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.Enum([...PARAM_TYPES]), {
      maxProperties: 40,
      description: 'Required path, query and body parameters and their JSON types.',
    }),
    returns: Type.String({
      pattern: RETURNS_PATTERN,
      maxLength: 200,
      description: 'What a successful call returns, at most ten words.',
    }),
  },
  { additionalProperties: false },
);

export const ManifestBody = Type.Object(
  {
    service: Type.String({ minLength: 1, maxLength: 200 }),
    base_url: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 2000,
      description:
        'Callable URL, or a template with {variables} when base_url_variables has one without a usable default.',
    }),
    base_url_variables: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 100 }), UrlVariable)),
    base_url_template: Type.Optional(Type.Literal(true, { description: 'base_url must be filled in before calling.' })),
    insecure_http: Type.Optional(Type.Literal(true, { description: 'The only usable server is plain http.' })),
    auth: Auth,
    intents: Type.Array(Intent, { minItems: 1, maxItems: MAX_INTENTS }),
  },
  { additionalProperties: false },
);

export const ApiTrust = Type.Object(
  { reliability_score: Type.Number({ minimum: 0.5, maximum: 0.95 }) },
  { additionalProperties: false },
);

export const ApiRecord = Type.Object(
  {
    verified: Type.Boolean({ description: 'true when compiled from the public APIs.guru directory.' }),
    compiled_at: Type.String({ format: 'date-time' }),
    tokens: Type.Object(
      {
        definition: Type.Integer({
          minimum: 0,
          description: 'o200k_base tokens of the source definition as shipped (JSON).',
        }),
        manifest: Type.Integer({ minimum: 0, description: 'o200k_base tokens of the compact JSON of `manifest`.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'Bookkeeping; never served as part of the manifest.' },
);

export const ApiManifest = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    service_name: Type.String({
      pattern: SNAKE_PATTERN,
      maxLength: 100,
      description: 'Unique id; equals the file name.',
    }),
    category: Type.Enum([...API_CATEGORIES]),
    tags: Type.Array(Type.String({ pattern: SNAKE_PATTERN, maxLength: 40 }), { maxItems: MAX_TAGS, uniqueItems: true }),
    source_url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2000,
      description: 'Where the definition came from.',
    }),
    manifest: ManifestBody,
    trust: ApiTrust,
    record: ApiRecord,
  },
  { additionalProperties: false, title: 'API manifest' },
);

export type ApiManifest = Type.Static<typeof ApiManifest>;

/** Where `npm run schema` writes ApiManifest (relative to the catalog folder), and its description. */
export const API_SCHEMA_PATH = 'schema/api.schema.json';
export const API_SCHEMA_DESCRIPTION =
  'An API manifest of the Tool Contract Catalog: one file per web API in catalog/apis/<service_name>.json, compiled from the APIs.guru directory by `npm run compile-apis`. Generated from build/apis/manifest.ts; do not edit by hand.';
export type ManifestBody = Type.Static<typeof ManifestBody>;
export type Intent = Type.Static<typeof Intent>;
export type Auth = Type.Static<typeof Auth>;
export type AuthScheme = Type.Static<typeof AuthScheme>;
export type UrlVariable = Type.Static<typeof UrlVariable>;

const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  '/service_name': 'must be lowercase snake_case (letters and digits joined by single underscores)',
  '/source_url': 'must be an http(s) URL',
  '/manifest/base_url': 'must be an http(s) URL',
};

const checkSchema = createAjv().compile(ApiManifest);

/** All problems with one manifest object; an empty array means it is valid. */
export function validateManifest(value: unknown): FieldError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ path: '/', message: 'must be a JSON object' }];
  }
  if (checkSchema(value)) return [];
  return formatAjvErrors(checkSchema.errors, PATTERN_MESSAGES);
}
