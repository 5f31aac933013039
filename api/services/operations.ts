// Operation recipes of one web API (catalog/apis/operations/<service>.json.gz, compiled with the manifests):
// all of them, paginated, or ranked for an intent, and one by id. Nothing is loaded at start: a file is read
// through the catalog store on first use. Ranking (services search asks it for up to ten APIs per query) works on a small per-API index of
// ids, summaries and their analysed words, kept for many APIs; whole recipes (Microsoft Graph beta's unpack to
// tens of MB and take ~0.4 s to parse) are kept for a few only.
import { parseOperationsFile, type Recipe } from '../../build/apis/recipe-schema.ts';
import type { CatalogStore } from '../../build/catalog/catalog-store.ts';
import { operationPage } from '../../build/discovery/api-recipes-static.ts';
import { analyze } from '../../build/search/tokenize.ts';
import { CATALOG } from '../messages.ts';
import { type ApiCatalog, type ApiRecord, manifestByName } from './apis.ts';
import { DomainError } from './errors.ts';

type Ctx = { apis: ApiCatalog; store: Pick<CatalogStore, 'readOperations'> };

/** What ranking needs of one operation: its listing fields and the words an intent can meet. */
interface IndexedOperation {
  id: string;
  method: string;
  path: string;
  summary: string | null;
  position: number;
  /** Words of summary, id, path segments and returns. */
  terms: Set<string>;
  summaryTerms: Set<string>;
}

/** A least-recently-used map that holds at most `budget` units (operations) in all. */
function lru<T>(budget: number, size: (v: T) => number) {
  const map = new Map<string, T>();
  let used = 0;
  return {
    get(key: string): T | undefined {
      const v = map.get(key);
      if (v !== undefined) {
        map.delete(key);
        map.set(key, v);
      }
      return v;
    },
    set(key: string, v: T): void {
      map.set(key, v);
      used += size(v);
      for (const [k, old] of map) {
        if (used <= budget || map.size === 1) break;
        map.delete(k);
        used -= size(old);
      }
    },
  };
}

const RECIPES_KEPT = 20_000;
const INDEX_KEPT = 300_000;
/** Cached per API with the manifest record it was read for: a new record (a write here or elsewhere) reloads. */
interface Cached<T> {
  record: ApiRecord;
  value: T;
}
const recipesCache = lru<Cached<Recipe[]>>(RECIPES_KEPT, (r) => Math.max(1, r.value.length));
const indexCache = lru<Cached<IndexedOperation[]>>(INDEX_KEPT, (ix) => Math.max(1, ix.value.length));

function recordOf(ctx: Ctx, serviceName: string): ApiRecord {
  manifestByName(ctx, serviceName);
  return ctx.apis.byName.get(serviceName) as ApiRecord;
}

/**
 * The recipes of a served API, read through the catalog store (so an admin write kept in Redis is read as
 * the files are), or `not_found` when the API is not served. An API without recipes has none.
 */
export async function operationsOf(ctx: Ctx, serviceName: string): Promise<Recipe[]> {
  const record = recordOf(ctx, serviceName);
  const hit = recipesCache.get(serviceName);
  if (hit?.record === record) return hit.value;
  const bytes = await ctx.store.readOperations(serviceName);
  const recipes = bytes ? ((parseOperationsFile(bytes) as { operations?: Recipe[] }).operations ?? []) : [];
  // Another read may have raced this one past a newer record: only the record read for is cached.
  recipesCache.set(serviceName, { record, value: recipes });
  return recipes;
}

async function indexOf(ctx: Ctx, serviceName: string): Promise<IndexedOperation[]> {
  const record = recordOf(ctx, serviceName);
  const hit = indexCache.get(serviceName);
  if (hit?.record === record) return hit.value;
  const index = (await operationsOf(ctx, serviceName)).map((r, position) => ({
    id: r.id,
    method: r.method,
    path: r.path,
    summary: r.summary ?? null,
    position,
    terms: new Set(
      analyze([r.summary ?? '', r.id.replace(/_/g, ' '), r.path.replace(/[{}/_.-]+/g, ' '), r.returns].join(' ')),
    ),
    summaryTerms: new Set(analyze(r.summary ?? '')),
  }));
  indexCache.set(serviceName, { record, value: index });
  return index;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Operations ranked for an intent: the share of the query's terms an operation covers, then how many of
 * them its summary holds, then a small preference for writes (send, create …) over reads that only list.
 * Operations that match nothing are left out.
 */
function rank(index: IndexedOperation[], q: string): IndexedOperation[] {
  const query = [...new Set(analyze(q))];
  if (query.length === 0) return [];
  const scored: { op: IndexedOperation; score: number }[] = [];
  for (const op of index) {
    const hits = query.filter((t) => op.terms.has(t)).length;
    if (hits === 0) continue;
    const inSummary = query.filter((t) => op.summaryTerms.has(t)).length;
    const score = hits / query.length + 0.1 * (inSummary / query.length) + (WRITE.has(op.method) ? 0.01 : 0);
    scored.push({ op, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.op.position - b.op.position).map((s) => s.op);
}

export const OPERATIONS_PAGE = 50;

/** GET /api/v1/services/{name}/operations: ranked for `q`, or all of them a page at a time. */
export async function operationList(ctx: Ctx, serviceName: string, q: string, limit = OPERATIONS_PAGE, offset = 0) {
  const all = await operationsOf(ctx, serviceName);
  const matching = q ? rank(await indexOf(ctx, serviceName), q).map((op) => all[op.position] as Recipe) : all;
  return operationPage(serviceName, q, matching, limit, offset);
}

/** One recipe by id, or `not_found`. */
export async function operationById(ctx: Ctx, serviceName: string, id: string): Promise<Recipe> {
  const r = (await operationsOf(ctx, serviceName)).find((op) => op.id === id);
  if (!r) throw new DomainError('not_found', CATALOG.operationNotFound(serviceName, id));
  return r;
}

/** The few operations of an API that best match an intent, as a search listing shows them. */
export async function bestOperations(ctx: Ctx, serviceName: string, q: string, n = 3) {
  return rank(await indexOf(ctx, serviceName), q)
    .slice(0, n)
    .map((op) => ({ id: op.id, method: op.method, path: op.path, summary: op.summary }));
}
