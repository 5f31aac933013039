// POST /admin/apis/compile ({url} of an OpenAPI 2.0/3.x definition on an allowed host, or the {definition}
// itself) and POST /admin/apis/ingest (a ready manifest file, with its recipes under `operations` or not). Both answer 200 when stored and 202 with a
// ticket when the change must be reviewed first (api/writes/api-writes.ts).
import type { H3, H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { requireAdminOf } from '../http/admin-guard.ts';
import { readJsonBody } from '../http/body.ts';
import { type CompileBody, compileAndStore, definitionHosts } from '../services/api-compile.ts';
import { invalid } from '../services/errors.ts';
import { API_INGEST_LIMIT, COMPILE_BODY_LIMIT, CompileApiRequest } from '../services/requests.ts';
import { bodyChecker } from '../services/validation.ts';
import { upstreamConfig } from '../../build/translate/upstream-fetch.ts';
import { putApi, splitQueued, type ApiWriteResult } from '../writes/api-writes.ts';
import { VALIDATION } from '../messages.ts';

const checkCompile = bodyChecker<CompileBody>(CompileApiRequest);

function answer(event: H3Event, r: ApiWriteResult) {
  if (r.status === 'queued') event.res.status = 202;
  return r;
}

export function adminApiRoutes(app: H3, ctx: AppContext) {
  const admin = requireAdminOf(ctx);
  // Read once per server, like translate: UPSTREAM_TIMEOUT_MS, ALLOW_PRIVATE_UPSTREAMS, APIS_DEFINITION_HOSTS.
  const cfg = upstreamConfig();
  const hosts = definitionHosts();

  app.post('/admin/apis/compile', async (event) => {
    await admin(event);
    const body = checkCompile(await readJsonBody(event, { limit: COMPILE_BODY_LIMIT }));
    return answer(event, await compileAndStore(ctx, body, cfg, hosts));
  });

  app.post('/admin/apis/ingest', async (event) => {
    await admin(event);
    const body = await readJsonBody(event, { limit: API_INGEST_LIMIT });
    if (body === undefined) throw invalid('body', null, VALIDATION.required, 'missing');
    // A manifest file, optionally with its recipes under `operations` (the operations file's array).
    const { manifest, operations } = splitQueued(body);
    return answer(event, await putApi(ctx, manifest, 'ingested manifest file', ['body'], operations));
  });
}
