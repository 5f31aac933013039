// Contributions from anyone: a proposed whole contract or a command fix, queued for review (never written to
// the catalog here; an admin accepts it through review.ts). The per-client hourly budget lives on the
// runtime state's backend, so under Redis a client has one budget across every instance.
import type Type from 'typebox';
import type { ToolContract } from '../../build/model/contract.ts';
import type { AppContext } from '../context.ts';
import type { AgentClass } from './agent-class.ts';
import { CONTRIBUTE, VALIDATION } from '../messages.ts';
import type { RateLimiter } from '../state/rate-limit/types.ts';
import type { NewSuggestion } from '../state/review-queue/types.ts';
import type { RuntimeState } from '../state/runtime-state.ts';
import { checkedContract } from '../writes/catalog-writes.ts';
import { DomainError, invalid } from './errors.ts';
import { CommandFix, ContributionNote } from './requests.ts';
import { cleanText } from '../../build/model/clean-text.ts';
import { bodyChecker } from './validation.ts';

const checkFix = bodyChecker<Type.Static<typeof CommandFix>>(CommandFix);
const checkNote = bodyChecker<string>(ContributionNote);

/** CONTRIBUTE_RATE_PER_HOUR per client (default 10; 0 = no limit). */
export function contributionLimiter(
  create: RuntimeState['createLimiter'],
  perHour = Number(process.env.CONTRIBUTE_RATE_PER_HOUR ?? 10),
): RateLimiter {
  if (!Number.isFinite(perHour) || perHour < 0) throw new Error('CONTRIBUTE_RATE_PER_HOUR must be a number >= 0');
  return create({ name: 'contribute', limit: perHour, windowMs: 3_600_000 });
}

/** What GET /api/v1/contribute answers: how to contribute, by pull request or through the API. */
export function contributionGuide(baseUrl: string) {
  return {
    summary: 'Add or fix a tool contract: open a pull request with one JSON file, or send it here for review.',
    pull_request: {
      file: 'catalog/tools/<aid>.json',
      aid: 'lowercase, ends in -v1, by convention <platform>-<name>-v1 (scoped npm @scope/pkg -> npm-scope-pkg-v1); equals the file name',
      schema_url: `${baseUrl}/schema/tool.schema.json`,
      validate: 'npm run validate -- catalog/tools/<aid>.json',
      steps: [
        'Copy a neighbouring file in catalog/tools/ and keep "$schema": "../schema/tool.schema.json" for editor help.',
        'Run the validator until it prints nothing (one line per problem).',
        'Open a pull request; the "validate catalog" workflow runs the same check.',
      ],
    },
    api: {
      endpoint: `POST ${baseUrl}/api/v1/contribute`,
      bodies: {
        contract: { contract: '<a whole contract in the catalog file format>', note: 'optional' },
        fix: { aid: '<aid>', field: 'install_cmd | execute_cmd', value: '<one-line command>', note: 'optional' },
      },
      response: '202 with a ticket id; a maintainer reviews it before anything is published',
      rate_limit: 'about 10 contributions per hour per client',
    },
  };
}

/** The suggestion a contribution body makes, checked (`invalid` names the bad field). */
function suggestionOf(ctx: Pick<AppContext, 'snapshot'>, body: unknown, agent: AgentClass): NewSuggestion {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('body', null, CONTRIBUTE.shape, body === undefined ? 'missing' : 'model_attributes_type');
  }
  if ('contract' in body) {
    const { contract, note, ...extra } = body as { contract: unknown; note?: unknown };
    const extraKey = Object.keys(extra)[0];
    if (extraKey !== undefined) throw invalid('body', extraKey, VALIDATION.extra, 'extra_forbidden');
    const c: ToolContract = checkedContract(contract, ['body', 'contract']);
    if (note !== undefined) checkNote(note, ['body', 'note']);
    const noted = note ? { note: cleanText(note as string) } : {};
    return { kind: 'contract', aid: c.identity.aid, field: null, value: JSON.stringify(c), agent, ...noted };
  }
  const fix = checkFix(body);
  if (!ctx.snapshot.byAid.has(fix.aid)) throw invalid('body', 'aid', CONTRIBUTE.unknownAid(fix.aid), 'value_error');
  const value = cleanText(fix.value);
  if (!value) throw invalid('body', 'value', VALIDATION.tooShort(1), 'string_too_short');
  const noted = fix.note ? { note: cleanText(fix.note) } : {};
  return { kind: 'fix', aid: fix.aid, field: fix.field, value, agent, ...noted };
}

/** Queues a contribution for review; `conflict` when the same one is already waiting (or the queue is full). */
export async function contribute(ctx: Pick<AppContext, 'snapshot' | 'reviewQueue'>, body: unknown, agent: AgentClass) {
  const input = suggestionOf(ctx, body, agent);
  const queued = await ctx.reviewQueue.submit(input);
  if (!queued) throw new DomainError('conflict', CONTRIBUTE.duplicate);
  return {
    status: 'queued',
    ticket: queued.id,
    kind: input.kind,
    aid: input.aid,
    note: 'Thank you. A maintainer reviews contributions before anything is published.',
  };
}
