// POST /api/v1/translate (admin): {url} of a GitHub repository, PyPI project, npm package or a contract on
// an allowed peer catalog → a contract, stored exactly like an ingest (services/translate.ts).
import type { H3 } from 'h3';
import type Type from 'typebox';
import type { AppContext } from '../context.ts';
import { requireAdminOf } from '../http/admin-guard.ts';
import { readJsonBody } from '../http/body.ts';
import { TranslateRequest } from '../services/requests.ts';
import { translateAndStore } from '../services/translate.ts';
import { bodyChecker } from '../services/validation.ts';
import { upstreamConfig } from '../../build/translate/upstream-fetch.ts';

const check = bodyChecker<Type.Static<typeof TranslateRequest>>(TranslateRequest);

export function translateRoutes(app: H3, ctx: AppContext) {
  const admin = requireAdminOf(ctx);
  // Read once per server: GITHUB_API_URL, PYPI_URL, NPM_REGISTRY_URL, PEER_CATALOG_HOSTS, ALLOW_PRIVATE_UPSTREAMS.
  const cfg = upstreamConfig();
  app.post('/api/v1/translate', async (event) => {
    await admin(event);
    const { url } = check(await readJsonBody(event));
    return translateAndStore(ctx, url, cfg);
  });
}
