// Contributions from anyone: GET /api/v1/contribute says how (pull request, schema, validator), POST
// /api/v1/contribute queues a proposed contract or a command fix for review (202 + ticket). Nothing an
// anonymous caller sends reaches the catalog until an admin accepts it (routes/admin.ts).
import type { H3 } from 'h3';
import Type from 'typebox';
import { AID_PATTERN, ToolContract } from '../../build/model/contract.ts';
import { readJsonBody } from '../http/body.ts';
import { checkedContract, COMMAND_FIELDS, ContractInvalidError, contractValidationError } from '../writes/catalog-writes.ts';
import { clientIp, userAgentClassOf } from '../http/client.ts';
import type { AppContext } from '../context.ts';
import { httpError, invalid } from '../http/errors.ts';
import { enforce, type RateLimiter } from '../state/rate-limit/memory.ts';
import { bodyChecker } from '../http/request-body.ts';
import type { NewSuggestion } from '../state/review-queue/file.ts';
import type { RuntimeState } from '../state/runtime-state.ts';
import { cleanText } from '../services/tax-payload.ts';

export const CONTRIBUTE_BODY_LIMIT = 256 * 1024;
const Note = Type.String({ maxLength: 1000, description: 'Why, or where the information comes from.' });

export const ProposedContract = Type.Object({ contract: ToolContract, note: Type.Optional(Note) }, { additionalProperties: false, title: 'ProposedContract' });
export const CommandFix = Type.Object({
  aid: Type.String({ pattern: AID_PATTERN }),
  field: Type.Enum([...COMMAND_FIELDS]),
  value: Type.String({ minLength: 1, maxLength: 1000, description: 'The one-line command.' }),
  note: Type.Optional(Note),
}, { additionalProperties: false, title: 'CommandFix' });
export const ContributionRequest = Type.Union([ProposedContract, CommandFix], { title: 'ContributionRequest' });

const checkFix = bodyChecker<Type.Static<typeof CommandFix>>(CommandFix);
const checkNote = bodyChecker<string>(Note);

/**
 * POST /api/v1/contribute per client: CONTRIBUTE_RATE_PER_HOUR (default 10; 0 = no limit), on the runtime
 * state's backend, so under Redis a client has one hourly budget across every instance.
 */
export function contributionLimiter(create: RuntimeState['createLimiter'], perHour = Number(process.env.CONTRIBUTE_RATE_PER_HOUR ?? 10)): RateLimiter {
  if (!Number.isFinite(perHour) || perHour < 0) throw new Error('CONTRIBUTE_RATE_PER_HOUR must be a number >= 0');
  return create({ name: 'contribute', limit: perHour, windowMs: 3_600_000 });
}

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

export function contributeRoutes(app: H3, ctx: AppContext) {
  app.get('/api/v1/contribute', () => contributionGuide(ctx.config.baseUrl));

  app.post('/api/v1/contribute', async (event) => {
    await enforce(ctx.contributeLimiter, clientIp(event, ctx.client));
    const body = await readJsonBody(event, { limit: CONTRIBUTE_BODY_LIMIT });
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw invalid('body', null, 'Send {"contract": {...}} or {"aid", "field", "value"}', body === undefined ? 'missing' : 'model_attributes_type');
    }
    const agent = userAgentClassOf(event);
    let input: NewSuggestion;
    if ('contract' in body) {
      const { contract, note, ...extra } = body as { contract: unknown; note?: unknown };
      const extraKey = Object.keys(extra)[0];
      if (extraKey !== undefined) throw invalid('body', extraKey, 'Extra inputs are not permitted', 'extra_forbidden');
      let c: ToolContract;
      try {
        c = checkedContract(contract);
      } catch (error) {
        if (error instanceof ContractInvalidError) throw contractValidationError(error.errors, ['body', 'contract']);
        throw error;
      }
      if (note !== undefined) checkNote(note, ['body', 'note']);
      input = { kind: 'contract', aid: c.identity.aid, field: null, value: JSON.stringify(c), agent, ...(note ? { note: cleanText(note as string) } : {}) };
    } else {
      const fix = checkFix(body);
      if (!ctx.snapshot.byAid.has(fix.aid)) throw invalid('body', 'aid', `Tool '${fix.aid}' is not in the catalog; propose a whole contract instead`, 'value_error');
      const value = cleanText(fix.value);
      if (!value) throw invalid('body', 'value', 'String should have at least 1 character(s)', 'string_too_short');
      input = { kind: 'fix', aid: fix.aid, field: fix.field, value, agent, ...(fix.note ? { note: cleanText(fix.note) } : {}) };
    }
    const queued = await ctx.reviewQueue.submit(input);
    if (!queued) throw httpError(409, 'An identical contribution is already waiting for review, or the review queue is full; nothing was added.');
    event.res.status = 202;
    return {
      status: 'queued', ticket: queued.id, kind: input.kind, aid: input.aid,
      note: 'Thank you. A maintainer reviews contributions before anything is published.',
    };
  });
}
