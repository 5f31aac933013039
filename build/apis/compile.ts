// Compiles one OpenAPI 2.0/3.x definition into an API manifest. Deterministic: the same definition and
// inputs give the same manifest byte for byte (no clock, no randomness, no iteration over hashed sets;
// `compiledAt` is passed in). Offline: references are resolved locally and never fetched.
import { authOf } from './auth.ts';
import { chooseCategory, chooseTags, directoryCategories } from './categories.ts';
import { operationIds, returnsOf, selectIntents } from './intents.ts';
import type { ApiManifest, ManifestBody } from './manifest.ts';
import type { SpecId } from './naming.ts';
import { listOperations } from './operation.ts';
import { buildRecipe } from './recipe.ts';
import type { OperationsFile } from './recipe-schema.ts';
import { createResolver, isObject, type Json, type Resolver } from './refs.ts';
import { plainText } from './returns.ts';
import { serverOf, sourceUrlOf, specIdOf } from './source.ts';
import { countTokens } from './tokens.ts';
import { reliabilityScore } from './trust.ts';

export interface CompileInput {
  /** The parsed definition (not modified). */
  definition: unknown;
  /** The definition as shipped, for its token count; defaults to its compact JSON. */
  text?: string;
  serviceName: string;
  /** ISO date-time written to record.compiled_at. */
  compiledAt: string;
  /** Directory entry, for source_url; defaults to info x-providerName / x-serviceName. */
  specId?: SpecId;
}

/** A definition that cannot become a manifest; `message` is the reason reported by the CLI. */
export class CompileError extends Error {
  override name = 'CompileError';
}

/** The compact JSON the manifest token count is taken of (what an agent would be handed). */
export const manifestText = (body: ManifestBody) => JSON.stringify(body);

export interface CompiledApi {
  manifest: ApiManifest;
  /** Recipes of every operation (catalog/apis/operations/<service_name>.json). */
  operations: OperationsFile;
}

export async function compileManifest(input: CompileInput): Promise<ApiManifest> {
  return (await compileApi(input)).manifest;
}

export async function compileApi(input: CompileInput): Promise<CompiledApi> {
  const doc = input.definition;
  if (!isObject(doc)) throw new CompileError('definition is not a JSON object');
  if (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string')
    throw new CompileError('not an OpenAPI or Swagger definition');
  const info: Json = isObject(doc.info) ? doc.info : {};

  let resolver: Resolver;
  try {
    resolver = await createResolver(doc);
  } catch (e) {
    throw new CompileError(`unparsable: ${(e as Error).message.split('\n')[0]}`);
  }

  const operations = listOperations(doc, resolver);
  if (operations.length === 0) throw new CompileError('no operations (paths is empty or webhooks only)');
  const baseUrl = serverOf(doc);
  if (!baseUrl) throw new CompileError('no usable server URL (none, relative to a file host, or templated)');

  const title =
    typeof info.title === 'string' && info.title.trim() ? plainText(info.title).slice(0, 200) : input.serviceName;
  const description = typeof info.description === 'string' ? plainText(info.description) : '';
  const apiAuth = authOf(doc, resolver, operations);
  const auth = apiAuth.auth;
  const ids = operationIds(operations);
  const recipes = operations.map((o, i) =>
    buildRecipe({ o, id: ids[i] ?? '', returns: returnsOf(o, resolver), doc, auth: apiAuth }, resolver),
  );
  const body: ManifestBody = {
    service: title,
    base_url: baseUrl.url,
    ...(baseUrl.variables ? { base_url_variables: baseUrl.variables } : {}),
    ...(baseUrl.template ? { base_url_template: true as const } : {}),
    ...(baseUrl.insecure ? { insecure_http: true as const } : {}),
    auth,
    intents: selectIntents(operations, resolver, ids),
  };

  const directory = directoryCategories(info);
  const xTags = Array.isArray(info['x-tags']) ? info['x-tags'].filter((t): t is string => typeof t === 'string') : [];
  const category = chooseCategory(directory, title, description);
  const specId = input.specId ?? specIdOf(doc);
  if (!specId) throw new CompileError('info has no x-providerName, so no source URL');

  const manifest: ApiManifest = {
    service_name: input.serviceName,
    category,
    tags: chooseTags(category, directory, xTags, title, description),
    source_url: sourceUrlOf(doc, specId),
    manifest: body,
    trust: {
      reliability_score: reliabilityScore({
        baseUrl,
        auth,
        operationCount: operations.length,
        unofficial: info['x-unofficialSpec'] === true,
      }),
    },
    record: {
      verified: true,
      compiled_at: input.compiledAt,
      tokens: {
        definition: countTokens(input.text ?? JSON.stringify(doc)),
        manifest: countTokens(manifestText(body)),
      },
    },
  };
  return { manifest, operations: { service_name: input.serviceName, operations: recipes } };
}

/** The file content of a manifest: 2-space JSON and a final newline. */
export const manifestFileContent = (m: ApiManifest) => `${JSON.stringify(m, null, 2)}\n`;
