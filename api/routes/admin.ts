// Admin writes: POST /api/v1/ingest (a pre-built contract), POST /admin/update-trust (a batch of scores),
// GET /admin/trust-evidence (what `npm run trust` scores from), GET /admin/rebuild (rebuild status), and
// the review queue: GET /admin/contributions, POST /admin/contributions/{id}/accept and /reject.
// Every route authenticates first (api/admin-auth.ts) and writes only through api/catalog-writes.ts.
import { getRouterParam, type H3, type H3Event } from 'h3';
import Type from 'typebox';
import { requireAdmin } from '../state/admin-auth/memory.ts';
import { acceptApi } from '../writes/api-writes.ts';
import { readJsonBody } from '../http/body.ts';
import { COMMAND_FIELDS, type CommandField, ContractInvalidError, contractValidationError, putContract, setCommand, updateTrust } from '../writes/catalog-writes.ts';
import type { AppContext } from '../context.ts';
import { httpError, validationError } from '../http/errors.ts';
import { bodyChecker } from '../http/request-body.ts';
import type { Suggestion } from '../state/review-queue/file.ts';

export const INGEST_BODY_LIMIT = 1024 * 1024;
export const MAX_TRUST_ENTRIES = 10_000;

export const UpdateTrustRequest = Type.Object(
  {
    scores: Type.Array(
      Type.Object({ aid: Type.String({ minLength: 1, maxLength: 200 }), reliability_score: Type.Number({ minimum: 0, maximum: 1 }) }, { additionalProperties: false }),
      { maxItems: MAX_TRUST_ENTRIES },
    ),
    calculated_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the scores were computed; default now.' })),
  },
  { additionalProperties: false, title: 'UpdateTrustRequest' },
);
type UpdateTrustBody = Type.Static<typeof UpdateTrustRequest>;
const checkTrust = bodyChecker<UpdateTrustBody>(UpdateTrustRequest);

export const AcceptRequest = Type.Object(
  { field: Type.Optional(Type.Enum([...COMMAND_FIELDS], { description: 'For a suggestion that names no field: which command it is.' })) },
  { additionalProperties: false, title: 'AcceptRequest' },
);
const checkAccept = bodyChecker<Type.Static<typeof AcceptRequest>>(AcceptRequest);

/** Every admin route starts with this: 503 / 429 / 401 / 403 before anything else happens. */
export const admin = (event: H3Event, ctx: AppContext) =>
  requireAdmin(event, { secret: () => ctx.config.adminSecret, failures: ctx.adminFailures, client: ctx.client });

/** The body of ingest: the contract itself, or wrapped as {"contract": {...}} (IngestRequest). */
function unwrap(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'contract') return (body as { contract: unknown }).contract;
  }
  return body;
}

export async function ingest(ctx: AppContext, value: unknown, prefix: (string | number)[]) {
  try {
    return await putContract(ctx, value);
  } catch (error) {
    if (error instanceof ContractInvalidError) throw contractValidationError(error.errors, prefix);
    throw error;
  }
}

/** A queued item as the admin sees it: a proposed contract is shown parsed. */
function shown(s: Suggestion) {
  const kind = s.kind ?? 'micro_translation';
  if (kind !== 'contract' && kind !== 'api') return { ...s, kind };
  const { value, ...rest } = s;
  let contract: unknown = null;
  try { contract = JSON.parse(value); } catch { /* shown as null; accept will refuse it */ }
  return kind === 'api' ? { ...rest, kind, manifest: contract } : { ...rest, kind, contract };
}

async function suggestionOf(event: H3Event, ctx: AppContext): Promise<Suggestion> {
  const id = getRouterParam(event, 'id') ?? '';
  const s = await ctx.reviewQueue.get(id);
  if (!s) throw httpError(404, `Contribution '${id.slice(0, 80)}' not found (accepted, rejected or never queued)`);
  return s;
}

/** Applies a queued item exactly like an admin write; the item leaves the queue only once applied. */
async function accept(ctx: AppContext, s: Suggestion, field: CommandField | undefined) {
  if (s.kind === 'api') return acceptApi(ctx, s);
  if (s.kind === 'contract') {
    let value: unknown;
    try { value = JSON.parse(s.value); } catch { throw httpError(422, 'the queued contract is not valid JSON; reject it'); }
    const r = await ingest(ctx, value, ['contribution', 'contract']);
    if (r.aid !== s.aid) throw httpError(409, 'the queued contract names another aid than its ticket; reject it');
    return { aid: r.aid, created: r.created, field: null };
  }
  const target = s.field ?? field;
  if (!target) throw validationError([{ loc: ['body', 'field'], msg: 'This suggestion names no field: send {"field": "install_cmd"} or {"field": "execute_cmd"}', type: 'missing' }]);
  try {
    await setCommand(ctx, s.aid, target, s.value);
  } catch (error) {
    if (error instanceof ContractInvalidError) throw contractValidationError(error.errors, ['contribution']);
    throw error;
  }
  return { aid: s.aid, created: false, field: target };
}

export function adminRoutes(app: H3, ctx: AppContext) {
  app.post('/api/v1/ingest', async (event) => {
    await admin(event, ctx);
    const body = await readJsonBody(event, { limit: INGEST_BODY_LIMIT });
    if (body === undefined) throw validationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
    const { aid, created } = await ingest(ctx, unwrap(body), ['body']);
    return { status: 'ok', aid, created };
  });

  app.post('/admin/update-trust', async (event) => {
    await admin(event, ctx);
    // 10,000 entries of about 70 bytes each.
    const body = checkTrust(await readJsonBody(event, { limit: 2 * 1024 * 1024 }));
    const seen = new Set<string>();
    const dupes: number[] = [];
    body.scores.forEach((s, i) => { if (seen.has(s.aid)) dupes.push(i); else seen.add(s.aid); });
    if (dupes.length) {
      throw validationError(dupes.slice(0, 100).map((i) => ({ loc: ['body', 'scores', i, 'aid'], msg: 'Duplicate aid in the batch', type: 'value_error' })));
    }
    const at = body.calculated_at ? new Date(body.calculated_at).toISOString() : new Date().toISOString();
    const { updated, unknown } = await updateTrust(ctx, body.scores, at);
    return { status: 'ok', updated, unknown, calculated_at: at };
  });

  app.get('/admin/trust-evidence', async (event) => {
    await admin(event, ctx);
    if (!ctx.telemetry.evidence) throw httpError(501, 'this telemetry backend keeps no per-client evidence');
    const evidence = await ctx.telemetry.evidence();
    const tools = evidence.flatMap((e) => {
      const c = ctx.snapshot.byAid.get(e.aid);
      return c ? [{ ...e, reliability_score: c.trust.reliability_score, reliability_calculated_at: c.record?.reliability_calculated_at ?? null }] : [];
    });
    return { generated_at: new Date().toISOString(), count: tools.length, tools };
  });

  app.get('/admin/contributions', async (event) => {
    await admin(event, ctx);
    const items = (await ctx.reviewQueue.list()).map(shown);
    return { count: items.length, contributions: items };
  });

  app.post('/admin/contributions/:id/accept', async (event) => {
    await admin(event, ctx);
    const s = await suggestionOf(event, ctx);
    const body = await readJsonBody(event);
    const { field } = body === undefined ? {} : checkAccept(body);
    const applied = await accept(ctx, s, field);
    await ctx.reviewQueue.remove(s.id);
    return { status: 'ok', id: s.id, kind: s.kind ?? 'micro_translation', ...applied };
  });

  app.post('/admin/contributions/:id/reject', async (event) => {
    await admin(event, ctx);
    const s = await suggestionOf(event, ctx);
    await ctx.reviewQueue.remove(s.id);
    return { status: 'ok', id: s.id, rejected: true };
  });

  app.get('/admin/rebuild', async (event) => {
    await admin(event, ctx);
    return ctx.rebuild.status();
  });
}
