// Compiling one web-API definition on request (POST /admin/apis/compile) with the same compiler as
// `npm run compile-apis`, and storing the manifest and its recipes through the API write path
// (writes/api-writes.ts).
// Whose data failed decides the answer: the caller's posted definition is `invalid`, a fetched one `upstream`.
import { CompileError, type CompiledApi, compileApi } from '../../build/apis/compile.ts';
import { candidateName } from '../../build/apis/naming.ts';
import { isObject } from '../../build/apis/refs.ts';
import { hostnameOf, serverOf, specIdOf } from '../../build/apis/source.ts';
import type Type from 'typebox';
import type { AppContext } from '../context.ts';
import { ADMIN } from '../messages.ts';
import { fetchUpstreamJson, type UpstreamConfig } from '../../build/translate/upstream-fetch.ts';
import { type ApiWriteResult, putApi } from '../writes/api-writes.ts';
import { ContractInvalidError, DomainError, fromUpstream, invalid } from './errors.ts';
import type { CompileApiRequest } from './requests.ts';

export type CompileBody = Type.Static<typeof CompileApiRequest>;

export const DEFAULT_DEFINITION_HOSTS = ['api.apis.guru', 'raw.githubusercontent.com'];

/** APIS_DEFINITION_HOSTS: comma-separated host or host:port. */
export function definitionHosts(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env.APIS_DEFINITION_HOSTS?.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return raw?.length ? raw : DEFAULT_DEFINITION_HOSTS;
}

/** The URL when it may be fetched: an allowed host, https (http only where private upstreams are allowed, i.e. tests). */
function allowedUrl(raw: string, hosts: string[], cfg: UpstreamConfig): URL | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
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

/** One definition → one manifest and its recipes; `blame` says whose data failed (the caller's body or the upstream). */
async function compile(definition: unknown, body: CompileBody, blame: (reason: string) => Error): Promise<CompiledApi> {
  if (!isObject(definition)) throw blame('the definition is not a JSON object');
  const host = hostnameOf(serverOf(definition));
  const directory = specIdOf(definition);
  try {
    const { manifest: m, operations } = await compileApi({
      definition,
      serviceName: serviceNameOf(definition, body.service_name),
      compiledAt: new Date().toISOString(),
      // Outside the directory there is no APIs.guru URL: name the provider by its host instead.
      specId: directory ?? { provider: host ?? 'unknown' },
    });
    const source = body.source_url ?? body.url ?? (directory ? m.source_url : m.manifest.base_url);
    return { manifest: { ...m, source_url: source }, operations };
  } catch (error) {
    if (error instanceof CompileError) throw blame(error.message);
    throw error;
  }
}

/** Compiles the posted or fetched definition and stores the manifest (or queues it for review). */
export async function compileAndStore(
  ctx: AppContext,
  body: CompileBody,
  cfg: UpstreamConfig,
  hosts: string[],
): Promise<ApiWriteResult> {
  if ((body.url === undefined) === (body.definition === undefined)) throw invalid('body', null, ADMIN.compileOneSource);
  let definition: unknown = body.definition;
  let blame = (reason: string): Error => invalid('body', 'definition', ADMIN.compileFailed(reason));
  if (body.url !== undefined) {
    const url = allowedUrl(body.url.trim(), hosts, cfg);
    if (!url) throw invalid('body', 'url', ADMIN.compileUrlHost(hosts));
    definition = await fetchUpstreamJson(url.href, cfg, 'the definition host').catch((error) => {
      throw fromUpstream(error);
    });
    blame = (reason) => new DomainError('upstream', ADMIN.compileFailedAt(url.host, reason));
  }
  const { manifest, operations } = await compile(definition, body, blame);
  try {
    const note = `recompiled from ${body.url ?? 'a posted definition'}`;
    return await putApi(ctx, manifest, note, ['body'], operations.operations);
  } catch (error) {
    // The compiler's output failed the schema: the definition, not the request, is at fault.
    if (error instanceof ContractInvalidError) {
      throw blame(`it makes no valid manifest (${error.message.slice(0, 300)})`);
    }
    throw error;
  }
}
