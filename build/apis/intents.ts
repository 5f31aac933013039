// Which operations become intents (at most 20), and their ids.
//
// Selection rule — favour what an agent most likely needs first:
//   1. Deprecated operations are left out (`deprecated: true`, or a summary/description starting with
//      "Deprecated"), unless nothing else is left.
//   2. Each operation gets a kind. DELETE is delete. Otherwise the first verb word of its operationId
//      decides (list, get, describe, create, send, search, update, …; for GET only read/list/search
//      verbs count), else method and path do: GET on a plural collection (`/customers`) = list, other
//      GET (`/customers/{id}`, `/account`) = read, POST on a plural collection = create, other POST =
//      action, PUT/PATCH = update; "search"/"query"/"find" in path or summary = search.
//   3. Score = kind weight (search 10, list 9, read 8, create 8, action 5, update 4, delete 2)
//      + 0.5 × log2(1 + operations on the same resource), at most +2 — core resources (customers,
//        messages, files) carry many operations, peripheral ones few; the definition has no other
//        popularity signal
//      − 0.5 per required input (path, query, header, body; at most −5)
//      − 0.25 per path segment beyond two (version prefixes such as v1 not counted)
//      − 3 under a settings/preferences/config segment (account configuration is rarely the first need)
//      + 0.5 when it has a summary or description.
//   4. Greedy pick, best first: each already-picked intent of the same kind costs 0.4 and each on the
//      same resource (paths.ts `pathResource`: the last literal path segment that is not a verb, so
//      `/users/{id}/drafts` and `/users/{id}/labels` are different resources and `/messages/send` acts on
//      messages) costs 1, so the 20 cover many resources and a mix of list/read/create rather than
//      twenty lists.
//   Ties go to the operation that comes first in the definition, so the result is deterministic.
import { type Intent, MAX_INTENTS } from './manifest.ts';
import { snakeWords } from './naming.ts';
import { bodyFieldCount, type IntentKind, type Operation, requiredNonBodyCost, requiredParams } from './operation.ts';
import { isTemplate, pathResource, segmentsOf, VERSION_SEGMENT, verbKind } from './paths.ts';
import type { Resolver } from './refs.ts';
import { returnsPhrase } from './returns.ts';

const WEIGHT: Readonly<Record<IntentKind, number>> = {
  search: 9,
  list: 8,
  read: 8,
  create: 9,
  action: 6,
  update: 4,
  delete: 2,
};

export function isDeprecated(o: Operation): boolean {
  if (o.op.deprecated === true) return true;
  const text =
    `${typeof o.op.summary === 'string' ? o.op.summary : ''} ${typeof o.op.description === 'string' ? o.op.description : ''}`.trim();
  return /^\W*deprecated\b/i.test(text);
}

/** A collection path ends in a plural noun (`/customers`, `/images/generations`), not `/account` or `/stop`. */
function isCollection(segment: string): boolean {
  const last = snakeWords(segment).pop() ?? '';
  return /[^su]s$|ies$/.test(last) || /^(list|all|search)$/.test(last);
}

export function kindOf(o: Operation): IntentKind {
  const segments = segmentsOf(o.path);
  const last = segments[segments.length - 1] ?? '';
  const getKind = (): IntentKind => (isTemplate(last) || !isCollection(last) ? 'read' : 'list');
  // The method is authoritative for GET and DELETE; operationId verbs refine it (`getFoo` may list).
  if (o.method === 'DELETE') return 'delete';
  const opId = typeof o.op.operationId === 'string' ? o.op.operationId : '';
  const words = snakeWords(opId);
  // AWS query-protocol ids repeat the method (`GET_SendMessage`): the verb after it says what it does.
  if (words.length > 1 && words[0] === o.method.toLowerCase()) words.shift();
  for (const word of words) {
    const kind = verbKind(word);
    if (!kind) continue;
    if (o.method === 'GET') {
      if (kind === 'search' || kind === 'list') return kind;
      if (kind === 'read') return getKind();
      continue; // `getNewReleases`: "new" is not a create
    }
    return kind; // RPC style: POST `DescribeInstances` reads, POST `SendEmail` creates
  }
  if (/\b(search|query|find)\b/i.test(`${o.path} ${String(o.op.summary ?? '')}`)) return 'search';
  switch (o.method) {
    case 'GET':
      return getKind();
    case 'POST':
      return isTemplate(last) || /[:#=]/.test(o.path) || !isCollection(last) ? 'action' : 'create';
    default:
      return 'update';
  }
}

const CONFIGURATION_SEGMENT = /^(settings|preferences|config|configuration)$/i;
// Operator and plumbing endpoints: what an API's documentation puts last, not first.
const PERIPHERAL_WORD =
  /^(admin|internal|debug|test|tests|health|healthcheck|ping|version|versions|metadata|meta|schema|schemas|webhooks?|oauth|openapi|swagger)$/i;

/** The first literal word of a path past version segments (`/repos/{o}/{r}/issues` → repos, `/chat.postMessage` → chat). */
export function pathFamily(path: string): string {
  const first = segmentsOf(path).find((s) => !VERSION_SEGMENT.test(s) && !isTemplate(s)) ?? '';
  return snakeWords(first.split(/[.:#?=]/)[0] ?? '')[0] ?? '';
}

interface Sizes {
  resource: number;
  family: number;
}

function baseScore(o: Operation, kind: IntentKind, sizes: Sizes, r: Resolver): number {
  const segments = segmentsOf(o.path);
  const depth = segments.filter((s) => !VERSION_SEGMENT.test(s)).length;
  const documented = typeof o.op.summary === 'string' || typeof o.op.description === 'string';
  const words = segments.flatMap((s) => s.split(/[.:]/)).flatMap((s) => snakeWords(s));
  const writes = kind === 'create' || kind === 'action' || kind === 'update';
  return (
    WEIGHT[kind] +
    Math.min(2, 0.5 * Math.log2(1 + sizes.resource)) +
    Math.min(1.5, 0.25 * Math.log2(1 + sizes.family)) +
    (writes ? Math.min(2, 0.5 * Math.log2(1 + bodyFieldCount(o, r))) : 0) -
    Math.min(3, 0.5 * requiredNonBodyCost(o, r)) -
    0.25 * Math.max(0, depth - 2) -
    (segments.some((s) => CONFIGURATION_SEGMENT.test(s)) ? 3 : 0) -
    (words.some((w) => PERIPHERAL_WORD.test(w)) ? 3 : 0) +
    (documented ? 0.5 : 0)
  );
}

/** snake_case id from operationId, else method + path (`GET /users/{id}` → get_users_by_id); ≤ 80 chars. */
export function intentId(o: Operation): string {
  const opId = typeof o.op.operationId === 'string' ? snakeWords(o.op.operationId) : [];
  const words =
    opId.length > 0
      ? opId
      : [
          o.method.toLowerCase(),
          ...segmentsOf(o.path).flatMap((s) => (isTemplate(s) ? ['by', ...snakeWords(s)] : snakeWords(s))),
        ];
  let id = words.join('_');
  if (id.length > 80) id = id.slice(0, 80).replace(/_+$/, '');
  return id || o.method.toLowerCase();
}

/** Ids of all operations in definition order, unique: a repeat gets `_2`, `_3` (recipes and intents share them). */
export function operationIds(operations: readonly Operation[]): string[] {
  const ids = new Set<string>();
  return operations.map((o) => {
    const base = intentId(o);
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base.slice(0, 76).replace(/_+$/, '')}_${n}`;
    ids.add(id);
    return id;
  });
}

function countOf(keys: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) out.set(k, (out.get(k) ?? 0) + 1);
  return out;
}

/** The chosen operations, best first, as manifest intents; `ids` are operationIds(operations). */
export function selectIntents(
  operations: readonly Operation[],
  r: Resolver,
  ids = operationIds(operations),
  max = MAX_INTENTS,
): Intent[] {
  const live = operations.filter((o) => !isDeprecated(o));
  const candidates = live.length > 0 ? live : operations;
  const resources = candidates.map((o) => pathResource(o.path));
  const families = candidates.map((o) => pathFamily(o.path));
  const resourceSize = countOf(resources);
  const familySize = countOf(families);
  const pool = candidates.map((o, i) => {
    const kind = kindOf(o);
    const resource = resources[i] ?? '';
    const sizes = { resource: resourceSize.get(resource) ?? 1, family: familySize.get(families[i] ?? '') ?? 1 };
    return { o, kind, resource, score: baseScore(o, kind, sizes, r) };
  });
  const picked: typeof pool = [];
  const kindCount = new Map<IntentKind, number>();
  const resourceCount = new Map<string, number>();
  const remaining = new Set(pool);
  while (picked.length < max && remaining.size > 0) {
    let best: (typeof pool)[number] | undefined;
    let bestScore = -Infinity;
    for (const c of remaining) {
      const s = c.score - 0.4 * (kindCount.get(c.kind) ?? 0) - (resourceCount.get(c.resource) ?? 0);
      if (s > bestScore || (s === bestScore && best !== undefined && c.o.index < best.o.index)) {
        best = c;
        bestScore = s;
      }
    }
    if (!best) break;
    remaining.delete(best);
    picked.push(best);
    kindCount.set(best.kind, (kindCount.get(best.kind) ?? 0) + 1);
    resourceCount.set(best.resource, (resourceCount.get(best.resource) ?? 0) + 1);
  }
  return picked.map(({ o, kind }) => {
    const id = ids[o.index] ?? intentId(o);
    return { id, method: o.method, path: o.path, params: requiredParams(o, r), returns: returnsPhrase(o, r, kind) };
  });
}

/** The returns phrase of any operation, its kind decided as for intents (recipes use it). */
export const returnsOf = (o: Operation, r: Resolver) => returnsPhrase(o, r, kindOf(o));
