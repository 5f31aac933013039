// Admin writes of web-API manifests: POST /admin/apis/compile ({url} of an OpenAPI 2.0/3.x definition on
// an allowed host, or the {definition} itself) compiles one API with the same compiler as
// `npm run compile-apis`; POST /admin/apis/ingest stores a ready manifest file. Both answer 200 when
// stored and 202 with a ticket when the change must be reviewed first (api/api-writes.ts).
import type { H3, H3Event } from 'h3';
import Type from 'typebox';
import { CompileError, compileManifest } from '../../build/apis/compile.ts';
import { type ApiManifest, SNAKE_PATTERN } from '../../build/apis/manifest.ts';
import { candidateName } from '../../build/apis/naming.ts';
import { isObject } from '../../build/apis/refs.ts';
import { hostnameOf, serverOf, specIdOf } from '../../build/apis/source.ts';
import { type ApiWriteResult, putApi } from '../writes/api-writes.ts';
import { readJsonBody } from '../http/body.ts';
import { ContractInvalidError, contractValidationError } from '../writes/catalog-writes.ts';
import type { AppContext } from '../context.ts';
import { httpError, invalid } from '../http/errors.ts';
import { bodyChecker } from '../http/request-body.ts';
import { fetchUpstreamJson, type UpstreamConfig, upstreamConfig, UpstreamError } from '../translate/upstream-fetch.ts';
import { admin } from './admin.ts';

/** A definition may be 5 MB (the upstream limit too); the wrapper adds a little. */
export const COMPILE_BODY_LIMIT = 5 * 1024 * 1024 + 16 * 1024;
export const API_INGEST_LIMIT = 1024 * 1024;
export const DEFAULT_DEFINITION_HOSTS = ['api.apis.guru', 'raw.githubusercontent.com'];

export const CompileApiRequest = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'URL of an OpenAPI 2.0/3.x JSON definition on an allowed host (APIS_DEFINITION_HOSTS; default api.apis.guru, raw.githubusercontent.com).' })),
    definition: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The OpenAPI 2.0/3.x definition itself (JSON, at most 5 MB).' })),
    service_name: Type.Optional(Type.String({ pattern: SNAKE_PATTERN, maxLength: 100, description: 'Default: from info.x-providerName / x-serviceName, else the API host (`api.stripe.com` → stripe_api).' })),
    source_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'Where the definition comes from; default the url, else its APIs.guru URL, else base_url.' })),
  },
  { additionalProperties: false, title: 'CompileApiRequest', description: 'Exactly one of url and definition.' },
);
type CompileBody = Type.Static<typeof CompileApiRequest>;
const checkCompile = bodyChecker<CompileBody>(CompileApiRequest);

/** APIS_DEFINITION_HOSTS: comma-separated host or host:port. */
export function definitionHosts(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env.APIS_DEFINITION_HOSTS?.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  return raw?.length ? raw : DEFAULT_DEFINITION_HOSTS;
}

/** The URL when it may be fetched: an allowed host, https (http only where private upstreams are allowed, i.e. tests). */
function allowedUrl(raw: string, hosts: string[], cfg: UpstreamConfig): URL | null {
  let u: URL;
  try { u = new URL(raw); } catch { return null; }
  if (u.username || u.password) return null;
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && cfg.allowPrivate)) return null;
  return hosts.includes(u.host.toLowerCase()) || hosts.includes(u.hostname.toLowerCase()) ? u : null;
}

function serviceNameOf(doc: Record<string, unknown>, requested: string | undefined): string {
  if (requested) return requested;
  const id = specIdOf(doc);
  if (id) return candidateName(id);
  const host = hostnameOf(serverOf(doc));
  return host ? candidateName({ provider: host }) : 'api';
}

/** One definition → one manifest; `blame` says whose data failed (the caller's body or the upstream). */
async function compile(definition: unknown, body: CompileBody, blame: (reason: string) => Error): Promise<ApiManifest> {
  if (!isObject(definition)) throw blame('the definition is not a JSON object');
  const host = hostnameOf(serverOf(definition));
  const directory = specIdOf(definition);
  try {
    const m = await compileManifest({
      definition,
      serviceName: serviceNameOf(definition, body.service_name),
      compiledAt: new Date().toISOString(),
      // Outside the directory there is no APIs.guru URL: name the provider by its host instead.
      specId: directory ?? { provider: host ?? 'unknown' },
    });
    const source = body.source_url ?? body.url ?? (directory ? m.source_url : m.manifest.base_url);
    return { ...m, source_url: source };
  } catch (error) {
    if (error instanceof CompileError) throw blame(error.message);
    throw error;
  }
}

function answer(event: H3Event, r: ApiWriteResult) {
  if (r.status === 'queued') event.res.status = 202;
  return r;
}

async function stored(ctx: AppContext, value: unknown, note: string, prefix: (string | number)[]) {
  try {
    return await putApi(ctx, value, note);
  } catch (error) {
    if (error instanceof ContractInvalidError) throw contractValidationError(error.errors, prefix);
    throw error;
  }
}

export function adminApiRoutes(app: H3, ctx: AppContext) {
  // Read once per server, like translate: UPSTREAM_TIMEOUT_MS, ALLOW_PRIVATE_UPSTREAMS, APIS_DEFINITION_HOSTS.
  const cfg = upstreamConfig();
  const hosts = definitionHosts();

  app.post('/admin/apis/compile', async (event) => {
    await admin(event, ctx);
    const body = checkCompile(await readJsonBody(event, { limit: COMPILE_BODY_LIMIT }));
    if ((body.url === undefined) === (body.definition === undefined)) throw invalid('body', null, 'Send exactly one of url and definition');
    let definition: unknown = body.definition;
    let blame = (reason: string): Error => invalid('body', 'definition', `cannot be compiled: ${reason}`);
    if (body.url !== undefined) {
      const url = allowedUrl(body.url.trim(), hosts, cfg);
      if (!url) throw invalid('body', 'url', `Unsupported URL: give an https URL on one of ${hosts.join(', ')}`);
      try {
        definition = await fetchUpstreamJson(url.href, cfg, 'the definition host');
      } catch (error) {
        if (error instanceof UpstreamError) throw httpError(error.status, error.message);
        throw error;
      }
      blame = (reason) => httpError(502, `the definition at ${url.host} cannot be compiled: ${reason.slice(0, 300)}`);
    }
    const manifest = await compile(definition, body, blame);
    try {
      return answer(event, await putApi(ctx, manifest, `recompiled from ${body.url ?? 'a posted definition'}`));
    } catch (error) {
      // The compiler's output failed the schema: the definition, not the request, is at fault.
      if (error instanceof ContractInvalidError) throw blame(`it makes no valid manifest (${error.message.slice(0, 300)})`);
      throw error;
    }
  });

  app.post('/admin/apis/ingest', async (event) => {
    await admin(event, ctx);
    const body = await readJsonBody(event, { limit: API_INGEST_LIMIT });
    if (body === undefined) throw invalid('body', null, 'Field required', 'missing');
    return answer(event, await stored(ctx, body, 'ingested manifest file', ['body']));
  });
}
