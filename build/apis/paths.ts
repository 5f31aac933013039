// Reading an operation's path: its segments, the verbs that name actions, and the one rule for which
// resource a path is about (used for intent selection in intents.ts and `returns` phrases in returns.ts).
import { snakeWords } from './naming.ts';
import type { IntentKind } from './operation.ts';

const VERBS: Readonly<Record<string, IntentKind>> = {
  search: 'search',
  query: 'search',
  find: 'search',
  lookup: 'search',
  list: 'list',
  all: 'list',
  browse: 'list',
  get: 'read',
  describe: 'read',
  fetch: 'read',
  read: 'read',
  retrieve: 'read',
  show: 'read',
  view: 'read',
  download: 'read',
  create: 'create',
  add: 'create',
  insert: 'create',
  new: 'create',
  post: 'create',
  send: 'create',
  upload: 'create',
  register: 'create',
  update: 'update',
  put: 'update',
  patch: 'update',
  modify: 'update',
  set: 'update',
  edit: 'update',
  replace: 'update',
  delete: 'delete',
  remove: 'delete',
  destroy: 'delete',
  cancel: 'delete',
  purge: 'delete',
};

/** The kind a verb word names, if it is one (own keys only: a word like "constructor" is not a verb). */
export const verbKind = (word: string): IntentKind | undefined =>
  Object.hasOwn(VERBS, word) ? VERBS[word] : undefined;

/** Version prefixes and API roots that say nothing about the resource (`v1`, `v2.1`, `v1beta1`, `api`, `2016-11-15`). */
export const VERSION_SEGMENT = /^(v\d+((alpha|beta)\d*)?([._]\d+)*|api|rest|\d{4}-\d{2}-\d{2})$/i;

export const isTemplate = (segment: string) => /^\{[^}]*\}$/.test(segment);

/** The path's segments, without its query or fragment. */
export const segmentsOf = (path: string) => path.split(/[?#]/)[0]?.split('/').filter(Boolean) ?? [];

const FILE_EXTENSION = /\.(json|xml|csv|txt|html?|ya?ml|php|aspx?)$/i;
const NOT_A_NAME = new Set(['info', 'count']);

/**
 * The resource a path is about, as words: the last literal segment past templates, version segments
 * and trailing actions — verb segments and custom methods (`/v1/customers/{id}` → customers,
 * `/messages/send` → messages, `/jobs/{id}/cancel` → jobs, `/v1/threatLists:computeDiff` → threat lists).
 * RPC-style paths name the action in a query or fragment (`/#X-Amz-Target=Service.ListThings`: the value
 * after `=` counts); OData keys are dropped (`/indexers('{name}')/search.run` → indexers); file-like
 * names lose their extension (`/info.0.json`); a dotted name gives its last part that is not a number,
 * a verb, "info" or "count" (`/account.cart.list.json` → cart), else its last part.
 */
export function pathResource(path: string): string {
  const literal: { name: string; action: boolean }[] = [];
  for (const raw of path.split(/[/?#&]/)) {
    // `{resource}:getIamPolicy`: a custom method (after the colon) on the resource before it.
    const [base = '', ...methods] = raw.replace(/\(.*\)$/, '').split(':'); // OData keys: `indexers('{name}')`
    for (const [i, segment] of [base, ...methods].entries()) {
      const name = segment.split('=').pop() ?? '';
      // A templated file name (`/Messages/{Sid}.json`) stays: intent selection on Twilio-style APIs
      // relies on item reads forming their own resource.
      if (name && !isTemplate(name) && !VERSION_SEGMENT.test(name)) literal.push({ name, action: i > 0 });
    }
  }
  const isAction = (s: { name: string; action: boolean }) =>
    s.action || verbKind(snakeWords(s.name)[0] ?? '') !== undefined;
  while (literal.length > 1 && isAction(literal[literal.length - 1]!)) literal.pop();
  const parts = (literal[literal.length - 1]?.name ?? '')
    .replace(FILE_EXTENSION, '')
    .split('.')
    .filter((p) => p && !/^\d+$/.test(p));
  const named =
    parts.filter((p) => !verbKind(p.toLowerCase()) && !NOT_A_NAME.has(p.toLowerCase())).pop() ?? parts.pop() ?? '';
  return snakeWords(named).join(' ');
}
