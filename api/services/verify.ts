// Verification on demand: which tools a POST /admin/verify body selects, queueing them, reading a ticket,
// and queueing contracts that just arrived (ingest, translate, an accepted contribution). The server only
// enqueues: the sandbox runs in `npm run verify:worker` processes (build/cli/verify-worker.ts), never here.
import type Type from 'typebox';
import { TICKET_PATTERN, type TicketStatus, type VerifyReason } from '../../build/verify/queue/types.ts';
import type { AppContext } from '../context.ts';
import { VERIFY } from '../messages.ts';
import { DomainError, invalid, invalidItems, type ValidationItem } from './errors.ts';
import { VerifyRequest } from './requests.ts';
import { bodyChecker } from './validation.ts';

const checkVerify = bodyChecker<Type.Static<typeof VerifyRequest>>(VerifyRequest);

type VerifyContext = Pick<AppContext, 'snapshot' | 'verifyQueue'>;

/** The aids a request body selects (422 naming each unknown aid, or a selection that is missing or mixed). */
export function selectedAids(ctx: Pick<AppContext, 'snapshot'>, body: unknown): string[] {
  if (body === undefined) throw invalid('body', null, VERIFY.noSelection, 'missing');
  const req = checkVerify(body);
  if (req.aids) {
    if (req.all || req.platform) throw invalid('body', 'aids', VERIFY.oneSelection, 'value_error');
    const unknown: ValidationItem[] = [];
    req.aids.forEach((aid, i) => {
      if (!ctx.snapshot.byAid.has(aid))
        unknown.push({ loc: ['body', 'aids', i], msg: VERIFY.unknownAid(aid), type: 'value_error' });
    });
    if (unknown.length) throw invalidItems(unknown.slice(0, 100));
    return [...new Set(req.aids)];
  }
  if (!req.all && !req.platform) throw invalid('body', null, VERIFY.noSelection, 'missing');
  const aids = ctx.snapshot.tools
    .filter((t) => !req.platform || t.identity.platform === req.platform)
    .map((t) => t.identity.aid);
  if (!aids.length && req.platform)
    throw invalid('body', 'platform', VERIFY.nothingSelected(req.platform), 'value_error');
  return aids;
}

async function enqueue(ctx: VerifyContext, aids: string[], reason: VerifyReason) {
  try {
    return await ctx.verifyQueue.enqueue(aids, reason);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('unavailable', VERIFY.queueDown, 5);
  }
}

/** POST /admin/verify: queues the selection; the answer is the ticket to follow. */
export async function requestVerification(ctx: VerifyContext, body: unknown) {
  const aids = selectedAids(ctx, body);
  const { ticket, queued } = await enqueue(ctx, aids, 'admin');
  return { status: 'queued', ticket, aids: aids.length, queued, status_url: `/api/v1/admin/verify/${ticket}` };
}

/** GET /admin/verify/{ticket}. */
export async function verificationTicket(ctx: Pick<AppContext, 'verifyQueue'>, ticket: string): Promise<TicketStatus> {
  const status = TICKET_PATTERN.test(ticket) ? await ctx.verifyQueue.status(ticket) : null;
  if (!status) throw new DomainError('not_found', VERIFY.ticketNotFound(ticket));
  return status;
}

/**
 * After a contract write succeeded: queue it for verification. The write stands whatever happens here, so a
 * queue outage is logged for the operator (the weekly run or POST /admin/verify catches it up), not thrown.
 */
export async function queueWritten(ctx: Pick<AppContext, 'verifyQueue' | 'log'>, aids: string[], reason: VerifyReason) {
  try {
    const { ticket } = await ctx.verifyQueue.enqueue(aids, reason);
    ctx.log.info({ aids: aids.length, reason, ticket }, 'verification queued');
  } catch (error) {
    ctx.log.error({ err: (error as Error).message, aids, reason }, 'verification not queued');
  }
}
