// Trust scores set by an operator (`npm run trust` or a batch POST) and the evidence they are computed from.
import type Type from 'typebox';
import type { AppContext } from '../context.ts';
import { ADMIN, VALIDATION } from '../messages.ts';
import { latestToolChange } from '../../build/model/views.ts';
import { markMcpReviewed, updateTrust } from '../writes/catalog-writes.ts';
import { DomainError, invalidItems } from './errors.ts';
import type { McpReviewedRequest, UpdateTrustRequest } from './requests.ts';

/** Stores a batch of scores; a batch naming an aid twice is refused whole. */
export async function updateTrustBatch(ctx: AppContext, body: Type.Static<typeof UpdateTrustRequest>) {
  const seen = new Set<string>();
  const dupes: number[] = [];
  body.scores.forEach((s, i) => {
    if (seen.has(s.aid)) dupes.push(i);
    else seen.add(s.aid);
  });
  if (dupes.length) {
    throw invalidItems(
      dupes
        .slice(0, 100)
        .map((i) => ({ loc: ['body', 'scores', i, 'aid'], msg: VALIDATION.duplicateAid, type: 'value_error' })),
    );
  }
  const at = body.calculated_at ? new Date(body.calculated_at).toISOString() : new Date().toISOString();
  const { updated, unknown } = await updateTrust(ctx, body.scores, at);
  return { status: 'ok', updated, unknown, calculated_at: at };
}

/** Per tool, the telemetry evidence `npm run trust` scores from, with the current score. */
export async function trustEvidence(ctx: Pick<AppContext, 'telemetry' | 'snapshot'>) {
  if (!ctx.telemetry.evidence) throw new DomainError('unsupported', ADMIN.noEvidence);
  const evidence = await ctx.telemetry.evidence();
  const tools = evidence.flatMap((e) => {
    const c = ctx.snapshot.byAid.get(e.aid);
    if (!c) return [];
    const calculated = c.record?.reliability_calculated_at ?? null;
    return [{ ...e, reliability_score: c.trust.reliability_score, reliability_calculated_at: calculated }];
  });
  return { generated_at: new Date().toISOString(), count: tools.length, tools };
}

/** An operator reviewed an MCP server's tool-list change or flags: back to active, changes marked reviewed. */
export async function mcpReviewed(ctx: AppContext, body: Type.Static<typeof McpReviewedRequest>) {
  const at = new Date().toISOString();
  const contract = await markMcpReviewed(ctx, body.aid, at);
  return {
    status: 'ok',
    aid: body.aid,
    trust_status: contract.trust.status,
    reviewed_at: at,
    latest_change: latestToolChange(contract),
  };
}
