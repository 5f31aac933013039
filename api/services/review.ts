// The review queue as an admin works it: list what waits (proposed contracts shown parsed), accept an item
// (applied exactly like an admin write; it leaves the queue only once applied) or reject it.
import type { AppContext } from '../context.ts';
import { ADMIN } from '../messages.ts';
import type { Suggestion } from '../state/review-queue/types.ts';
import { acceptApi, splitQueued } from '../writes/api-writes.ts';
import { type CommandField, putContract, setCommand } from '../writes/catalog-writes.ts';
import { DomainError, invalidItems } from './errors.ts';
import { queueWritten } from './verify.ts';

/** A queued item as the admin sees it: a proposed contract is shown parsed. */
function shown(s: Suggestion) {
  const kind = s.kind ?? 'micro_translation';
  if (kind !== 'contract' && kind !== 'api') return { ...s, kind };
  const { value, ...rest } = s;
  let contract: unknown = null;
  try {
    contract = JSON.parse(value);
  } catch {
    // Shown as null; accept will refuse it.
  }
  if (kind === 'contract') return { ...rest, kind, contract };
  // Recipes can be thousands: the admin sees how many come with the manifest, not each one.
  const { manifest, operations } = splitQueued(contract);
  return {
    ...rest,
    kind,
    manifest,
    ...(Array.isArray(operations) ? { operations_count: operations.length } : {}),
  };
}

export async function listContributions(ctx: Pick<AppContext, 'reviewQueue'>) {
  const items = (await ctx.reviewQueue.list()).map(shown);
  return { count: items.length, contributions: items };
}

export async function queuedItem(ctx: Pick<AppContext, 'reviewQueue'>, id: string): Promise<Suggestion> {
  const s = await ctx.reviewQueue.get(id);
  if (!s) throw new DomainError('not_found', ADMIN.contributionNotFound(id));
  return s;
}

/** Applies a queued item exactly like an admin write. */
async function apply(ctx: AppContext, s: Suggestion, field: CommandField | undefined) {
  if (s.kind === 'api') return acceptApi(ctx, s);
  if (s.kind === 'contract') {
    let value: unknown;
    try {
      value = JSON.parse(s.value);
    } catch {
      throw new DomainError('invalid', ADMIN.queuedContractNotJson);
    }
    const r = await putContract(ctx, value, ['contribution', 'contract']);
    if (r.aid !== s.aid) throw new DomainError('conflict', ADMIN.queuedContractOtherAid);
    return { aid: r.aid, created: r.created, field: null };
  }
  const target = s.field ?? field;
  if (!target) throw invalidItems([{ loc: ['body', 'field'], msg: ADMIN.suggestionNeedsField, type: 'missing' }]);
  await setCommand(ctx, s.aid, target, s.value, ['contribution']);
  return { aid: s.aid, created: false, field: target };
}

export async function acceptContribution(ctx: AppContext, s: Suggestion, field: CommandField | undefined) {
  const applied = await apply(ctx, s, field);
  await ctx.reviewQueue.remove(s.id);
  // A contract or command that changed: its evidence is stale (an accepted API manifest has no commands to run).
  if (s.kind !== 'api') await queueWritten(ctx, [applied.aid], 'accept');
  return { status: 'ok', id: s.id, kind: s.kind ?? 'micro_translation', ...applied };
}

export async function rejectContribution(ctx: Pick<AppContext, 'reviewQueue'>, id: string) {
  const s = await queuedItem(ctx, id);
  await ctx.reviewQueue.remove(s.id);
  return { status: 'ok', id: s.id, rejected: true };
}
