// /admin/*: POST /admin/update-trust (a batch of scores), GET /admin/trust-evidence (what `npm run trust`
// scores from), POST /admin/mcp-reviewed (an MCP server's tool-list change or flags were reviewed), GET /admin/rebuild (rebuild status), and the review queue: GET /admin/contributions,
// POST /admin/contributions/{id}/accept and /reject. Web-API admin routes: routes/admin-apis.ts.
// Every route authenticates first (http/admin-guard.ts) and writes only through api/writes/.
import { getRouterParam, type H3 } from 'h3';
import type Type from 'typebox';
import type { AppContext } from '../context.ts';
import { requireAdminOf } from '../http/admin-guard.ts';
import { readJsonBody } from '../http/body.ts';
import {
  AcceptRequest,
  McpReviewedRequest,
  UPDATE_TRUST_BODY_LIMIT,
  UpdateTrustRequest,
} from '../services/requests.ts';
import { acceptContribution, listContributions, queuedItem, rejectContribution } from '../services/review.ts';
import { mcpReviewed, trustEvidence, updateTrustBatch } from '../services/trust-admin.ts';
import { bodyChecker } from '../services/validation.ts';

const checkTrust = bodyChecker<Type.Static<typeof UpdateTrustRequest>>(UpdateTrustRequest);
const checkAccept = bodyChecker<Type.Static<typeof AcceptRequest>>(AcceptRequest);
const checkMcpReviewed = bodyChecker<Type.Static<typeof McpReviewedRequest>>(McpReviewedRequest);

export function adminRoutes(app: H3, ctx: AppContext) {
  const admin = requireAdminOf(ctx);
  const id = (event: Parameters<typeof admin>[0]) => getRouterParam(event, 'id') ?? '';

  app.post('/admin/update-trust', async (event) => {
    await admin(event);
    return updateTrustBatch(ctx, checkTrust(await readJsonBody(event, { limit: UPDATE_TRUST_BODY_LIMIT })));
  });

  app.post('/admin/mcp-reviewed', async (event) => {
    await admin(event);
    return mcpReviewed(ctx, checkMcpReviewed(await readJsonBody(event)));
  });

  app.get('/admin/trust-evidence', async (event) => {
    await admin(event);
    return trustEvidence(ctx);
  });

  app.get('/admin/contributions', async (event) => {
    await admin(event);
    return listContributions(ctx);
  });

  app.post('/admin/contributions/:id/accept', async (event) => {
    await admin(event);
    // The item is looked up before the body is read, so an unknown id is a 404 whatever the body says.
    const item = await queuedItem(ctx, id(event));
    const body = await readJsonBody(event);
    const { field } = body === undefined ? {} : checkAccept(body);
    return acceptContribution(ctx, item, field);
  });

  app.post('/admin/contributions/:id/reject', async (event) => {
    await admin(event);
    return rejectContribution(ctx, id(event));
  });

  app.get('/admin/rebuild', async (event) => {
    await admin(event);
    return ctx.rebuild.status();
  });
}
