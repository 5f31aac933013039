// The one way the API changes catalog/apis (admin compile and ingest, accepted API tickets). Like tool
// writes: validate with the same validator as `npm run validate`, write the file through the catalog
// store inside the shared write lock, show it in the live services search at once, ask for a rebuild.
// A manifest agents already rely on is protected: a new one that moves a verified manifest's base_url or
// changes its auth is queued for review instead of replacing it silently.
import { type ApiManifest, type Auth, validateManifest } from '../../build/apis/manifest.ts';
import { type OperationsFile, operationsFileContent, validateOperationsFile } from '../../build/apis/recipe-schema.ts';
import { intentsWithoutRecipe } from '../../build/catalog/validate-apis.ts';
import { refreshApis } from './catalog-sync.ts';
import type { AppContext } from '../context.ts';
import { ADMIN } from '../messages.ts';
import { ContractInvalidError, DomainError, type Loc } from '../services/errors.ts';
import type { Suggestion } from '../state/review-queue/types.ts';
import type { ApiRecord } from '../services/apis.ts';
import { withCatalogWrite } from './write-lock.ts';

export type ApiWriteResult =
  | { status: 'ok'; service_name: string; created: boolean; manifest: ApiManifest }
  | { status: 'queued'; service_name: string; ticket: string; changes: string[] };

type WriteCtx = Pick<AppContext, 'store' | 'apis' | 'rebuild' | 'reviewQueue'>;

const writingApi = <T>(ctx: WriteCtx, name: string, fn: () => Promise<T>) =>
  withCatalogWrite(ctx, () => refreshApis(ctx, [name]), fn);

const authText = (a: ApiRecord['manifest']['auth'] | Auth) =>
  [a.type, 'header' in a && a.header ? `header ${a.header}` : '', 'query' in a && a.query ? `query ${a.query}` : '']
    .filter(Boolean)
    .join(' ');

/** What `next` changes of a served manifest in the parts a caller needs to reach the API at all. */
export function protectedChanges(current: ApiRecord, next: ApiManifest): string[] {
  const changes: string[] = [];
  if (current.manifest.base_url !== next.manifest.base_url)
    changes.push(`base_url: ${current.manifest.base_url} -> ${next.manifest.base_url}`);
  const [was, now] = [authText(current.manifest.auth), authText(next.manifest.auth)];
  if (was !== now) changes.push(`auth: ${was} -> ${now}`);
  return changes;
}

/** A queued API change carries its recipes beside the manifest's own fields, under this key. */
export const QUEUED_OPERATIONS = 'operations';

/** A queued (or ingested) value: the manifest, and the recipes when it carries them. */
export function splitQueued(value: unknown): { manifest: unknown; operations?: unknown } {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !(QUEUED_OPERATIONS in value))
    return { manifest: value };
  const { [QUEUED_OPERATIONS]: operations, ...manifest } = value as Record<string, unknown>;
  return { manifest, operations };
}

/** Validates (throws ContractInvalidError with every problem under `at`) and returns the manifest typed. */
export function checkedManifest(value: unknown, at: Loc = ['body']): ApiManifest {
  const errors = validateManifest(value);
  if (errors.length) throw new ContractInvalidError(errors, at);
  return value as ApiManifest;
}

/**
 * Recipes to store with a manifest: valid as `npm run validate` wants them (schema, unique ids, a recipe
 * for every intent), as the file's gzipped bytes. Errors are named under `at` (`body.operations…`).
 */
export function checkedOperations(m: ApiManifest, operations: unknown, at: Loc = ['body']): Buffer {
  const file = { service_name: m.service_name, operations };
  const errors = validateOperationsFile(file);
  if (errors.length === 0) errors.push(...intentsWithoutRecipe(m, file as OperationsFile));
  if (errors.length) throw new ContractInvalidError(errors, at);
  return operationsFileContent(file as OperationsFile);
}

async function store(ctx: WriteCtx, m: ApiManifest, operations: Buffer | null): Promise<ApiWriteResult> {
  // Recipes first: the manifest's write is what announces the change (to other instances, the rebuild).
  if (operations) await ctx.store.writeOperations(m.service_name, operations);
  const { created } = await ctx.store.write('apis', m.service_name, m);
  ctx.apis = ctx.apis.with(m);
  ctx.rebuild.requestApis();
  return { status: 'ok', service_name: m.service_name, created, manifest: m };
}

/**
 * Stores a manifest with its recipes (`operations`, the recipes array of the operations file; absent = the
 * stored recipes stay as they are), or queues both (202) when it would change a verified manifest's
 * base_url or auth.
 */
export async function putApi(
  ctx: WriteCtx,
  value: unknown,
  note: string,
  at: Loc = ['body'],
  operations?: unknown,
): Promise<ApiWriteResult> {
  const m = checkedManifest(value, at);
  const recipes = operations === undefined ? null : checkedOperations(m, operations, at);
  return writingApi(ctx, m.service_name, async () => {
    // Served = verified: only a manifest agents are handed today is protected.
    const current = ctx.apis.byName.get(m.service_name);
    const changes = current ? protectedChanges(current, m) : [];
    if (changes.length === 0) return store(ctx, m, recipes);
    const ticket = await ctx.reviewQueue.submit({
      kind: 'api',
      aid: m.service_name,
      field: null,
      value: JSON.stringify(operations === undefined ? m : { ...m, [QUEUED_OPERATIONS]: operations }),
      agent: 'unknown',
      note: `${note}: ${changes.join('; ')}`,
    });
    if (!ticket) throw new DomainError('conflict', ADMIN.manifestChangeQueued(m.service_name));
    return { status: 'queued', service_name: m.service_name, ticket: ticket.id, changes };
  });
}

/** Applies an accepted `api` ticket: the reviewer has seen the change, so it is stored as is. */
export async function acceptApi(ctx: WriteCtx, s: Suggestion): Promise<{ aid: string; created: boolean; field: null }> {
  let value: unknown;
  try {
    value = JSON.parse(s.value);
  } catch {
    throw new DomainError('invalid', ADMIN.queuedManifestNotJson);
  }
  const { manifest, operations } = splitQueued(value);
  const m = checkedManifest(manifest, ['contribution', 'manifest']);
  if (m.service_name !== s.aid) throw new DomainError('conflict', ADMIN.queuedManifestOtherService);
  const recipes = operations === undefined ? null : checkedOperations(m, operations, ['contribution', 'manifest']);
  const r = await writingApi(ctx, m.service_name, () => store(ctx, m, recipes));
  return { aid: r.service_name, created: r.status === 'ok' && r.created, field: null };
}
