// /api/v1/admin/verify (and /admin/verify, beside the other admin routes): POST queues verification of the
// selected tools and answers 202 with a ticket; GET /…/verify/{ticket} reads its progress. The server only
// enqueues; `npm run verify:worker` processes run the sandbox.
import { getRouterParam, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { requireAdminOf } from '../http/admin-guard.ts';
import { readJsonBody } from '../http/body.ts';
import { VERIFY_BODY_LIMIT } from '../services/requests.ts';
import { requestVerification, verificationTicket } from '../services/verify.ts';

export const VERIFY_PATHS = ['/api/v1/admin/verify', '/admin/verify'] as const;

export function adminVerifyRoutes(app: H3, ctx: AppContext) {
  const admin = requireAdminOf(ctx);
  for (const base of VERIFY_PATHS) {
    app.post(base, async (event) => {
      await admin(event);
      const answer = await requestVerification(ctx, await readJsonBody(event, { limit: VERIFY_BODY_LIMIT }));
      event.res.status = 202;
      return answer;
    });
    app.get(`${base}/:ticket`, async (event) => {
      await admin(event);
      return verificationTicket(ctx, getRouterParam(event, 'ticket') ?? '');
    });
  }
}
