// Operation recipes: one per operation of an API, everything an agent needs to build the HTTP request
// (catalog/apis/operations/<service_name>.json.gz). Kept apart from manifest.ts because it is a second file
// kind with its own JSON Schema (catalog/schema/api-operations.schema.json).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Type from 'typebox';
import { createAjv, type FieldError, formatAjvErrors } from '../model/validate-contract.ts';
import { HTTP_METHODS, PARAM_TYPES, RETURNS_PATTERN, SNAKE_PATTERN } from './manifest.ts';

export const PARAM_LOCATIONS = ['path', 'query', 'header', 'cookie', 'body'] as const;
export type ParamLocation = (typeof PARAM_LOCATIONS)[number];

/** Values a parameter takes: JSON scalars or small structures copied from the definition. */
const Value = Type.Unknown();

const FieldShape = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  required: Type.Boolean(),
  type: Type.Enum([...PARAM_TYPES]),
  items: Type.Optional(
    Type.Enum([...PARAM_TYPES], {
      description:
        'Item type of an array. For an array of scalars, format, enum, pattern, lengths and range describe its items.',
    }),
  ),
  format: Type.Optional(
    Type.String({ maxLength: 40, description: 'JSON Schema format (date-time, email, uuid, binary …).' }),
  ),
  enum: Type.Optional(Type.Array(Value, { maxItems: 30 })),
  pattern: Type.Optional(
    Type.String({ maxLength: 300, description: 'ECMAScript regular expression a string must match.' }),
  ),
  min_length: Type.Optional(Type.Integer({ minimum: 0 })),
  max_length: Type.Optional(Type.Integer({ minimum: 0 })),
  minimum: Type.Optional(Type.Number()),
  maximum: Type.Optional(Type.Number()),
  min_items: Type.Optional(Type.Integer({ minimum: 0 })),
  min_properties: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Fewest entries an object (a map such as tags) must hold.' }),
  ),
  default: Type.Optional(Value),
  example: Type.Optional(Value),
  description: Type.Optional(Type.String({ maxLength: 120 })),
};

/** A required field of an object field: the second and last level. */
export const RecipeSubField = Type.Object(FieldShape, { additionalProperties: false });

/** A field of an object-valued body parameter (or of its array items). */
export const RecipeField = Type.Object(
  {
    ...FieldShape,
    fields: Type.Optional(
      Type.Array(RecipeSubField, {
        maxItems: 60,
        description: 'The required fields of an object field (or of its array items), one level, never further.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RecipeParam = Type.Object(
  {
    ...FieldShape,
    in: Type.Enum([...PARAM_LOCATIONS]),
    fields: Type.Optional(
      Type.Array(RecipeField, { maxItems: 60, description: 'Fields of an object (or of array items).' }),
    ),
  },
  { additionalProperties: false },
);

export const Recipe = Type.Object(
  {
    id: Type.String({
      pattern: SNAKE_PATTERN,
      maxLength: 80,
      description: 'Unique within the API; intents use the same ids.',
    }),
    method: Type.Enum([...HTTP_METHODS]),
    path: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'As in the definition; a `#…` suffix only keeps keys unique and is never sent.',
    }),
    summary: Type.Optional(Type.String({ maxLength: 200 })),
    content_type: Type.Optional(Type.String({ maxLength: 120, description: 'Media type of the request body.' })),
    params: Type.Array(RecipeParam, { maxItems: 120 }),
    returns: Type.String({ pattern: RETURNS_PATTERN, maxLength: 200 }),
    auth: Type.Array(Type.Array(Type.String({ minLength: 1, maxLength: 200 })), {
      description: 'Alternatives; each lists the manifest auth scheme ids sent together. [] = no credential.',
    }),
  },
  { additionalProperties: false },
);

export const OperationsFile = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    service_name: Type.String({
      pattern: SNAKE_PATTERN,
      maxLength: 100,
      description: 'Equals the file name and the manifest.',
    }),
    operations: Type.Array(Recipe, { minItems: 1 }),
  },
  { additionalProperties: false, title: 'API operation recipes' },
);

export type RecipeSubField = Type.Static<typeof RecipeSubField>;
export type RecipeField = Type.Static<typeof RecipeField>;
export type RecipeParam = Type.Static<typeof RecipeParam>;
export type Recipe = Type.Static<typeof Recipe>;
export type OperationsFile = Type.Static<typeof OperationsFile>;

export const OPERATIONS_FOLDER = 'operations';
export const OPERATIONS_SCHEMA_PATH = 'schema/api-operations.schema.json';
export const OPERATIONS_SCHEMA_DESCRIPTION =
  'The operation recipes of one web API of the Tool Contract Catalog: catalog/apis/operations/<service_name>.json.gz (gzipped JSON), compiled with the manifest by `npm run compile-apis`. Generated from build/apis/recipe-schema.ts; do not edit by hand.';

const checkSchema = createAjv().compile(OperationsFile);

/** All problems with one operations file; ids must be unique. */
export function validateOperationsFile(value: unknown): FieldError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [{ path: '/', message: 'must be a JSON object' }];
  if (!checkSchema(value)) return formatAjvErrors(checkSchema.errors, {});
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (value as OperationsFile).operations.forEach((op, i) => {
    if (seen.has(op.id)) errors.push({ path: `/operations/${i}/id`, message: `duplicates operation id ${op.id}` });
    seen.add(op.id);
  });
  return errors;
}

/**
 * The file content: compact JSON, gzipped. All recipes are 138 MB of JSON (Microsoft Graph alone 46 MB) but
 * 8.5 MB gzipped, so the repository keeps `<service_name>.json.gz`. Node's gzip header has no timestamp,
 * so the same recipes give the same bytes.
 */
export const operationsFileContent = (f: OperationsFile): Buffer => gzipSync(`${JSON.stringify(f)}\n`, { level: 9 });
export const OPERATIONS_EXTENSION = '.json.gz';

/** Where the recipes of one API live, given the catalog's apis/ folder. */
export const operationsFilePath = (apisDir: string, serviceName: string) =>
  path.join(apisDir, OPERATIONS_FOLDER, `${serviceName}${OPERATIONS_EXTENSION}`);

/** Reads and parses one recipes file (not validated). */
export const readOperationsFile = (file: string): unknown => parseOperationsFile(readFileSync(file));

/** Parses a file written by operationsFileContent. */
export const parseOperationsFile = (bytes: Uint8Array): unknown => JSON.parse(gunzipSync(bytes).toString('utf8'));
