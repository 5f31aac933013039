// POST /api/v1/translate (admin): {url} of a GitHub repository, PyPI project, npm package or a contract on
// an allowed peer catalog → a contract, stored exactly like an ingest. Upstreams are fetched only through
// api/upstream-fetch.ts (configured hosts, public addresses, 10 s, 5 MB).
import type { H3 } from 'h3';
import Type from 'typebox';
import { readJsonBody } from '../http/body.ts';
import { ContractInvalidError, putContract } from '../writes/catalog-writes.ts';
import type { AppContext } from '../context.ts';
import { httpError, invalid } from '../http/errors.ts';
import { bodyChecker } from '../http/request-body.ts';
import type { Draft } from '../translate/common.ts';
import { contractFrom, existingFor, sourceOf } from '../translate/index.ts';
import { upstreamConfig, UpstreamError } from '../translate/upstream-fetch.ts';
import { admin } from './admin.ts';

export const TranslateRequest = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2000, description: 'A GitHub repository, PyPI project or npm package page, or .../api/v1/tools/<aid> on an allowed peer catalog.' }) },
  { additionalProperties: false, title: 'TranslateRequest' },
);
const check = bodyChecker<Type.Static<typeof TranslateRequest>>(TranslateRequest);

export function translateRoutes(app: H3, ctx: AppContext) {
  // Read once per server: GITHUB_API_URL, PYPI_URL, NPM_REGISTRY_URL, PEER_CATALOG_HOSTS, ALLOW_PRIVATE_UPSTREAMS.
  const cfg = upstreamConfig();
  app.post('/api/v1/translate', async (event) => {
    await admin(event, ctx);
    const { url } = check(await readJsonBody(event));
    const source = sourceOf(url.trim(), cfg);
    if (!source) {
      throw invalid('body', 'url', 'Unsupported URL: give a GitHub repository, a PyPI project, an npm package, or a contract URL (/api/v1/tools/<aid>) on an allowed peer catalog', 'value_error');
    }
    let draft: Draft;
    try {
      draft = await source.fetch(cfg);
    } catch (error) {
      if (error instanceof UpstreamError) throw httpError(error.status, error.message);
      throw error;
    }
    const contract = contractFrom(draft, existingFor(ctx.snapshot, draft.source_url, draft.aid));
    try {
      const { aid, created } = await putContract(ctx, contract);
      return { status: 'ok', aid, created, source: source.kind, contract };
    } catch (error) {
      // The source's data, not the caller's request, is what failed.
      if (error instanceof ContractInvalidError) throw httpError(502, `the ${source.kind} source does not make a valid contract: ${error.message.slice(0, 300)}`);
      throw error;
    }
  });
}
