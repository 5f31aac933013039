// Operation recipes of one web API (catalog/apis/operations/<service>.json.gz, compiled with the manifests):
// all of them, paginated, or ranked for an intent, and one by id. Files are read on first use and a few kept
// in memory (the largest API's recipes are tens of MB unpacked, so nothing is loaded at start).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { operationsFilePath, parseOperationsFile, type Recipe } from '../../build/apis/recipe-schema.ts';
import type { Config } from '../../build/config.ts';
import { analyze } from '../../build/search/tokenize.ts';
import { CATALOG } from '../messages.ts';
import { type ApiCatalog, manifestByName } from './apis.ts';
import { DomainError } from './errors.ts';

type Ctx = { apis: ApiCatalog; config: Pick<Config, 'catalogDir'> };

const KEPT = 16;
const cache = new Map<string, Recipe[]>();

/** The recipes of a served API, or `not_found` when the API is not served. An API without a file has none. */
export function operationsOf(ctx: Ctx, serviceName: string): Recipe[] {
  manifestByName(ctx, serviceName);
  const file = operationsFilePath(path.join(ctx.config.catalogDir, 'apis'), serviceName);
  const key = file;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const recipes = existsSync(file)
    ? ((parseOperationsFile(readFileSync(file)) as { operations?: Recipe[] }).operations ?? [])
    : [];
  cache.set(key, recipes);
  if (cache.size > KEPT) cache.delete(cache.keys().next().value as string);
  return recipes;
}

/** Words of an operation an intent can meet: its summary, id, path segments and what it returns. */
const termsOf = (r: Recipe) =>
  new Set(analyze([r.summary ?? '', r.id.replace(/_/g, ' '), r.path.replace(/[{}/_.-]+/g, ' '), r.returns].join(' ')));

const WRITE = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Operations ranked for an intent: the share of the query's terms an operation covers, then how many of
 * them its summary holds, then a small preference for writes when the query names an action
 * (send, create …) the read operations only list. Operations that match nothing are left out.
 */
export function rankOperations(recipes: Recipe[], q: string): Recipe[] {
  const query = [...new Set(analyze(q))];
  if (query.length === 0) return [];
  const scored: { r: Recipe; score: number; i: number }[] = [];
  recipes.forEach((r, i) => {
    const terms = termsOf(r);
    const hits = query.filter((t) => terms.has(t)).length;
    if (hits === 0) return;
    const summary = new Set(analyze(r.summary ?? ''));
    const inSummary = query.filter((t) => summary.has(t)).length;
    const score = hits / query.length + 0.1 * (inSummary / query.length) + (WRITE.has(r.method) ? 0.01 : 0);
    scored.push({ r, score, i });
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.r);
}

export const OPERATIONS_PAGE = 50;

/** GET /api/v1/services/{name}/operations: ranked for `q`, or all of them a page at a time. */
export function operationList(ctx: Ctx, serviceName: string, q: string, limit = OPERATIONS_PAGE, offset = 0) {
  const all = operationsOf(ctx, serviceName);
  const matching = q ? rankOperations(all, q) : all;
  const results = matching.slice(offset, offset + limit);
  return { service_name: serviceName, query: q, total: matching.length, offset, count: results.length, results };
}

/** One recipe by id, or `not_found`. */
export function operationById(ctx: Ctx, serviceName: string, id: string): Recipe {
  const r = operationsOf(ctx, serviceName).find((op) => op.id === id);
  if (!r) throw new DomainError('not_found', CATALOG.operationNotFound(serviceName, id));
  return r;
}

/** The few operations of an API that best match an intent, as a search listing shows them. */
export function bestOperations(ctx: Ctx, serviceName: string, q: string, n = 3) {
  return rankOperations(operationsOf(ctx, serviceName), q)
    .slice(0, n)
    .map((r) => ({ id: r.id, method: r.method, path: r.path, summary: r.summary ?? null }));
}
