// An HTTP request built from an operation recipe alone, as an agent would: required parameters filled
// from the recipe's example, default or first enum value, else a value of the declared type and format;
// the body encoded as the recipe's content type; credentials placed as the manifest's auth schemes say.
import { createRequire } from 'node:module';
import type { Auth, AuthScheme } from '../manifest.ts';
import type { Recipe, RecipeField, RecipeParam, RecipeSubField } from '../recipe-schema.ts';

// randexp's typings declare an ES default export, but the package is CommonJS with module.exports = class.
interface Generator {
  max: number;
  randInt: (a: number, b: number) => number;
  gen(): string;
}
const RandExp = createRequire(import.meta.url)('randexp') as new (pattern: string) => Generator;

export interface BuiltRequest {
  method: string;
  /** Path and query, relative to the server root. */
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

const FORMAT_VALUES: Readonly<Record<string, unknown>> = {
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  time: '03:04:05Z',
  email: 'agent@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  'uri-reference': 'https://example.com/x',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'aGVsbG8=',
  binary: 'hello',
  password: 'secret-1',
  duration: 'P1D',
};

type Shape = Omit<RecipeField, 'name' | 'required' | 'fields'> & { fields?: readonly RecipeSubField[] };

/** A string meeting the pattern and length limits; randexp draws from a fixed seed, so runs repeat. */
function stringOf(f: Shape): string {
  let text = f.format && f.format in FORMAT_VALUES ? String(FORMAT_VALUES[f.format]) : 'example';
  if (f.pattern) {
    try {
      const re = new RegExp(f.pattern, 'u');
      const gen = new RandExp(f.pattern);
      let seed = 1;
      gen.randInt = (a: number, b: number) => {
        seed = (seed * 48271) % 2147483647;
        return a + (seed % (b - a + 1));
      };
      const fits = (t: string) =>
        re.test(t) && t.length >= (f.min_length ?? 0) && t.length <= (f.max_length ?? Infinity);
      // Repetitions grow until the length limits are met, as a person would stretch an example.
      for (let attempt = 0, max = 4; attempt < 12; attempt++, max *= 2) {
        gen.max = Math.min(max, Math.max(4, f.max_length ?? max));
        const candidate = gen.gen();
        if (fits(candidate)) return candidate;
        text = candidate;
      }
    } catch {
      // a pattern randexp or this engine cannot read: keep the plain value
    }
  }
  if (f.min_length !== undefined && text.length < f.min_length) text = text.padEnd(f.min_length, text.slice(-1) || 'x');
  if (f.max_length !== undefined && text.length > f.max_length) text = text.slice(0, f.max_length);
  return text;
}

function numberOf(f: Shape): number {
  const integer = f.format !== 'float' && f.format !== 'double';
  let n = integer ? 1 : 1.5;
  if (f.minimum !== undefined && n < f.minimum) n = integer ? Math.ceil(f.minimum) : f.minimum;
  if (f.maximum !== undefined && n > f.maximum) n = integer ? Math.floor(f.maximum) : f.maximum;
  return n;
}

/** A value for one field: example, default, first enum value, else one made from type, format and limits. */
export function fillValue(f: Shape): unknown {
  if (f.example !== undefined) return f.example;
  if (f.default !== undefined) return f.default;
  if (f.enum && f.enum.length > 0) return f.type === 'array' ? [f.enum[0]] : f.enum[0];
  switch (f.type) {
    case 'number':
      return numberOf(f);
    case 'boolean':
      return true;
    case 'array': {
      // The items' own rules are the array's (recipe-schema.ts): an item is made from them.
      const { type: _array, items, enum: _enum, example: _ex, default: _def, min_items: _min, fields, ...rules } = f;
      const item = items === 'object' ? objectOf(fields ?? []) : fillValue({ ...rules, type: items ?? 'string' });
      return Array.from({ length: Math.max(1, f.min_items ?? 1) }, () => item);
    }
    case 'object': {
      const value = objectOf(f.fields ?? []);
      // A map that must hold entries (tags): one entry, named and valued plainly.
      if ((f.min_properties ?? 0) > 0 && Object.keys(value).length === 0) value.key = 'value';
      return value;
    }
    default:
      return stringOf(f);
  }
}

function objectOf(fields: readonly (RecipeField | RecipeSubField)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f.required) out[f.name] = fillValue(f);
  return out;
}

const asText = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : Array.isArray(v)
      ? v.map(asText).join(',')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** Credentials for the first alternative of the operation's requirements, placed as each scheme says. */
function placeCredentials(
  recipe: Recipe,
  auth: Auth,
  headers: Record<string, string>,
  query: URLSearchParams,
  cookies: string[],
): void {
  const alternative = recipe.auth[0] ?? [];
  for (const id of alternative) {
    const scheme: AuthScheme | undefined = auth.schemes?.find((s) => s.id === id);
    if (!scheme) continue;
    const value =
      scheme.type === 'basic'
        ? `Basic ${Buffer.from('user:pass').toString('base64')}`
        : scheme.type === 'sigv4'
          ? `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240102/${scheme.region}/${scheme.service}/aws4_request, SignedHeaders=host, Signature=0`
          : (scheme.format ?? '{key}').replace(/\{[^}]+\}/g, 'test-credential');
    const name = scheme.name ?? 'Authorization';
    if (scheme.in === 'query') query.set(name, value);
    else if (scheme.in === 'cookie') cookies.push(`${name}=${encodeURIComponent(value)}`);
    else headers[name] = value;
  }
}

/** The request path: `{name}` filled; a `#…`/`?…` part of the definition's path key percent-encoded (see below). */
function pathOf(recipe: Recipe, values: Map<string, unknown>): string {
  // Definitions with several operations on one URL (AWS) tell them apart by a suffix such as
  // `/#X-Amz-Target=DynamoDB.GetItem`; HTTP clients never send a fragment, but the mock routes on the
  // literal key, so the suffix is sent encoded and the headers/query carry the real discriminator.
  const cut = recipe.path.search(/[#?]/);
  const [head, tail] = cut >= 0 ? [recipe.path.slice(0, cut), recipe.path.slice(cut)] : [recipe.path, ''];
  const filled = head.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(asText(values.get(name) ?? 'x')));
  return filled + (tail ? encodeURIComponent(tail) : '');
}

function bodyOf(contentType: string, params: readonly RecipeParam[]): string | FormData {
  const whole = params.find((p) => p.name === 'body' && params.length === 1);
  const value = whole
    ? fillValue(whole)
    : Object.fromEntries(params.filter((p) => p.required).map((p) => [p.name, fillValue(p)]));
  if (/json/.test(contentType)) return JSON.stringify(value);
  if (/x-www-form-urlencoded/.test(contentType) && typeof value === 'object' && value !== null) {
    return new URLSearchParams(Object.entries(value).map(([k, v]) => [k, asText(v)])).toString();
  }
  if (/multipart\/form-data/.test(contentType) && typeof value === 'object' && value !== null) {
    const form = new FormData();
    for (const [k, v] of Object.entries(value)) {
      const p = params.find((x) => x.name === k);
      if (p?.format === 'binary') form.append(k, new Blob(['hello']), 'file.txt');
      else form.append(k, asText(v));
    }
    return form;
  }
  if (/xml/.test(contentType)) return '<root/>';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function buildRequest(recipe: Recipe, auth: Auth): BuiltRequest {
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  const cookies: string[] = [];
  const values = new Map<string, unknown>();
  const body: RecipeParam[] = [];
  for (const p of recipe.params) {
    if (p.in === 'body') {
      body.push(p);
      continue;
    }
    if (!p.required && p.default === undefined) continue;
    if (!p.required && p.in !== 'header') continue;
    const value = fillValue(p);
    if (p.in === 'path') values.set(p.name, value);
    else if (p.in === 'query') {
      if (Array.isArray(value)) for (const v of value) query.append(p.name, asText(v));
      else query.set(p.name, asText(value));
    } else if (p.in === 'header') headers[p.name] = asText(value);
    else cookies.push(`${p.name}=${encodeURIComponent(asText(value))}`);
  }
  placeCredentials(recipe, auth, headers, query, cookies);
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const request: BuiltRequest = { method: recipe.method, url: pathOf(recipe, values), headers };
  const qs = query.toString();
  if (qs) request.url += `${request.url.includes('?') ? '&' : '?'}${qs}`;
  // A GET sends a body only when its recipe requires one (some definitions do; HTTP allows it).
  if (recipe.content_type && (recipe.method !== 'GET' || body.some((p) => p.required))) {
    request.body = bodyOf(recipe.content_type, body);
    // fetch sets the multipart boundary itself.
    const declared = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
    if (!(request.body instanceof FormData) && !declared) headers['content-type'] = recipe.content_type;
  }
  return request;
}
