// POST /api/v1/ingest (admin): a pre-built contract, stored whole (created or replaced; counters kept).
import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { requireAdminOf } from '../http/admin-guard.ts';
import { readJsonBody } from '../http/body.ts';
import { VALIDATION } from '../messages.ts';
import { invalid } from '../services/errors.ts';
import { INGEST_BODY_LIMIT } from '../services/requests.ts';
import { queueWritten } from '../services/verify.ts';
import { putContract } from '../writes/catalog-writes.ts';

/** The body of ingest: the contract itself, or wrapped as {"contract": {...}} (IngestRequest). */
function unwrap(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'contract') return (body as { contract: unknown }).contract;
  }
  return body;
}

export function ingestRoutes(app: H3, ctx: AppContext) {
  const admin = requireAdminOf(ctx);
  app.post('/api/v1/ingest', async (event) => {
    await admin(event);
    const body = await readJsonBody(event, { limit: INGEST_BODY_LIMIT });
    if (body === undefined) throw invalid('body', null, VALIDATION.required, 'missing');
    const { aid, created } = await putContract(ctx, unwrap(body), ['body']);
    await queueWritten(ctx, [aid], 'ingest');
    return { status: 'ok', aid, created };
  });
}
