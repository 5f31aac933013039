// `returns`: what a successful call gives back, in at most ten words, so an agent can pick an intent
// without reading schemas.
//
// Rule: the success response (lowest 2xx, else `default`) —
//   1. its description's first sentence, unless it says nothing ("OK", "The request was successful",
//      "200 response": every word is filler);
//   2. else the name of its schema (title, or the component it references), cleaned of verbs and
//      suffixes (`CreateChatCompletionResponse` → chat completion) and phrased by the intent's kind
//      ("the created chat completion", "list of files");
//   3. else a phrase from the kind and the path's resource (paths.ts `pathResource`: "list of customers",
//      "the created charge").
import { MAX_RETURNS_WORDS } from './manifest.ts';
import { snakeWords } from './naming.ts';
import { contentSchema, type IntentKind, type Operation } from './operation.ts';
import { pathResource } from './paths.ts';
import { isObject, type Json, type Resolver } from './refs.ts';

// Words that carry no information about the result.
const FILLER = new Set(
  (
    'a an the this that it its request response operation call action was is are has have had been be being' +
    ' completed complete successful successfully success succeeded succeed ok okay default code definition' +
    ' synchronous asynchronous accepted update updated delete deleted created create resource no content' +
    ' specified everything went fine http status returned return returns valid expected to of for with on in' +
    " and or if when will would result results processed executed sent request's response's well"
  ).split(' '),
);

const TRAILING_JUNK = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'to',
  'in',
  'for',
  'with',
  'by',
  'from',
  'as',
  'at',
  'on',
  'is',
  'are',
  'that',
  'which',
]);

export function isGeneric(phrase: string): boolean {
  return phrase
    .toLowerCase()
    .split(/[^a-z0-9']+/)
    .filter(Boolean)
    .every((w) => FILLER.has(w) || /^\d+$/.test(w));
}

/** Plain text: markdown, HTML, URLs and code marks removed, whitespace collapsed. */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/[`*_#>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first sentence in at most MAX_RETURNS_WORDS words; a longer one is cut at its last comma. */
export function shortPhrase(text: string): string {
  const plain = plainText(text);
  const sentence = plain.split(/(?<=[.!?;:])\s|\s[-–—]\s/)[0] ?? plain;
  let words = sentence
    .replace(/[.!?;:,]+$/, '')
    .split(' ')
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .map((w) => w.slice(0, 40));
  if (words.length > MAX_RETURNS_WORDS) {
    words = words.slice(0, MAX_RETURNS_WORDS);
    const comma = words.findLastIndex((w) => w.endsWith(','));
    if (comma >= 2) words = words.slice(0, comma + 1);
  }
  while (words.length > 1 && TRAILING_JUNK.has((words[words.length - 1] ?? '').toLowerCase().replace(/[,;:(]+$/, '')))
    words.pop();
  return words
    .join(' ')
    .replace(/[,;:(\-–—]+$/, '')
    .trim();
}

function successResponse(op: Json, r: Resolver): { code: string; response: Json } | undefined {
  const responses = isObject(op.responses) ? op.responses : {};
  const codes = Object.keys(responses)
    .filter((c) => /^2\d\d$|^2XX$/i.test(c))
    .sort();
  const code = codes[0] ?? ('default' in responses ? 'default' : undefined);
  const response = code === undefined ? undefined : r.deref(responses[code]);
  return code !== undefined && response ? { code, response } : undefined;
}

// Leading verbs of schema names (`CreateChatCompletionResponse`); paths use paths.ts `verbKind`.
const NAME_VERBS = new Set([
  'get',
  'list',
  'create',
  'update',
  'delete',
  'describe',
  'retrieve',
  'fetch',
  'put',
  'post',
  'patch',
  'search',
  'query',
  'find',
]);
const NAME_SUFFIXES = new Set([
  'response',
  'output',
  'result',
  'results',
  'dto',
  'model',
  'schema',
  'body',
  'payload',
  'resp',
  'reply',
  'envelope',
  'wrapper',
  'info',
]);
const LIST_SUFFIXES = new Set(['list', 'page', 'collection', 'paged', 'paginated', 'array']);
const MEANINGLESS =
  /^(object|json|string|any|inline( response)?( \d+)*|model( \d+)*|none|default|data|body|item|items|response|result|list|\d+.*)$/;
const EMPTY = new Set(['empty', 'void', 'unit', 'null', 'nothing']); // `GoogleProtobufEmpty`

interface Named {
  words: string[];
  list: boolean;
}

/** A schema's name as words: title or referenced component; arrays and `…List` names are lists. */
function schemaName(value: unknown, r: Resolver): Named | undefined {
  const s = r.deref(value);
  if (!s) return undefined;
  if (s.type === 'array' && s.items !== undefined) {
    const item = schemaName(s.items, r);
    return item ? { words: item.words, list: true } : undefined;
  }
  const raw = typeof s.title === 'string' && s.title.length <= 80 ? s.title : r.refName(value);
  if (!raw) return undefined;
  let words = snakeWords(raw);
  let list = false;
  if (words.length > 1 && NAME_VERBS.has(words[0] ?? '')) {
    list = words[0] === 'list';
    words = words.slice(1);
  }
  while (words.length > 1 && NAME_SUFFIXES.has(words[words.length - 1] ?? '')) words = words.slice(0, -1);
  if (words.length > 1 && LIST_SUFFIXES.has(words[words.length - 1] ?? '')) {
    list = true;
    words = words.slice(0, -1);
  }
  if (
    words.length === 0 ||
    words.length > 5 ||
    MEANINGLESS.test(words.join(' ')) ||
    EMPTY.has(words[words.length - 1] ?? '')
  )
    return undefined;
  return { words, list };
}

const singular = (noun: string) => noun.replace(/ies$/, 'y').replace(/(?<![siu])s$/, '');

function phrase(kind: IntentKind, noun: string, list: boolean): string {
  if (list || kind === 'list') return `list of ${noun}`;
  switch (kind) {
    case 'search':
      return `matching ${noun}`;
    case 'create':
      return `the created ${singular(noun)}`;
    case 'update':
      return `the updated ${singular(noun)}`;
    case 'delete':
      return `the deleted ${singular(noun)}`;
    default:
      return `the ${singular(noun)}`;
  }
}

function kindPhrase(kind: IntentKind, path: string): string {
  const resource = pathResource(path);
  if (kind === 'delete') return 'confirmation of deletion';
  if (!resource || kind === 'action') return resource ? `result of ${resource}` : 'operation result';
  if (kind === 'search' && /^(search|query|find)$/.test(resource)) return 'search results';
  return phrase(kind, resource, false);
}

export function returnsPhrase(o: Operation, r: Resolver, kind: IntentKind): string {
  const success = successResponse(o.op, r);
  const description =
    typeof success?.response.description === 'string' ? shortPhrase(success.response.description) : '';
  // A `default` response often documents the errors, not the result.
  const aboutErrors = success?.code === 'default' && /\b(error|errors|unexpected|fail\w*|problem)\b/i.test(description);
  if (description && !isGeneric(description) && !aboutErrors) return description;
  const schema = success ? (contentSchema(success.response.content) ?? success.response.schema) : undefined;
  const named = schema === undefined ? undefined : schemaName(schema, r);
  if (named) return shortPhrase(phrase(kind, named.words.join(' '), named.list));
  if (success?.code === '204') return 'no content';
  return shortPhrase(kindPhrase(kind, o.path));
}
