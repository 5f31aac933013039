// One operation as a recipe: every parameter with its location, the body's top-level fields (objects one
// level deep), the media type, constant headers with their value, and which auth schemes apply. Built for
// every operation of a definition, deprecated ones included (an agent may still meet them).
//
// Kept small on purpose (median ≤ 400 tokens): descriptions are a few words, enums at most 30 values,
// examples only when short, and credentials the auth block already places are not repeated.
import type { ApiAuth } from './auth.ts';
import type { HttpMethod } from './manifest.ts';
import { fittingExample } from './example-fit.ts';
import { chosenMediaType, type Operation, objectShape, parametersOf, schemaType } from './operation.ts';
import type { Recipe, RecipeField, RecipeParam } from './recipe-schema.ts';
import { isObject, type Json, type Resolver } from './refs.ts';
import { shortPhrase } from './returns.ts';

const MAX_PARAMS = 120;
const MAX_FIELDS = 60;
const MAX_ENUM = 30;
const MAX_VALUE_CHARS = 200;
const DESCRIPTION_WORDS = 8;

/** A short JSON value, or undefined when absent or too long to be worth its tokens. */
function shortValue(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= MAX_VALUE_CHARS ? value : undefined;
}

function brief(text: unknown): string | undefined {
  if (typeof text !== 'string' || !text.trim()) return undefined;
  const words = shortPhrase(text)
    .split(' ')
    .slice(0, DESCRIPTION_WORDS)
    .join(' ')
    .replace(/[,;:(]+$/, '');
  return words ? words.slice(0, 120) : undefined;
}

/** Merges `allOf` parts and follows references so constraints on either level are seen. */
function flatSchema(value: unknown, r: Resolver, depth = 0): Json {
  const s = r.deref(value);
  if (!s || depth > 4) return {};
  const out: Json = { ...s };
  const parts = Array.isArray(s.allOf) ? s.allOf : [];
  for (const part of parts) {
    const sub = flatSchema(part, r, depth + 1);
    for (const [k, v] of Object.entries(sub)) if (out[k] === undefined) out[k] = v;
  }
  for (const key of ['oneOf', 'anyOf']) {
    const list = s[key];
    if (out.type === undefined && Array.isArray(list) && list.length > 0) {
      const sub = flatSchema(list[0], r, depth + 1);
      for (const [k, v] of Object.entries(sub)) if (out[k] === undefined) out[k] = v;
    }
  }
  return out;
}

function firstExample(s: Json): unknown {
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (isObject(s.examples)) {
    const first = Object.values(s.examples).find(isObject);
    if (first && 'value' in first) return first.value;
  }
  if (Array.isArray(s['x-example'])) return undefined;
  return s['x-example'];
}

/** Type, item type, format, enum, default and example of a schema (a 2.0 parameter is its own schema). */
function describeSchema(value: unknown, r: Resolver, outer: Json = {}): Omit<RecipeField, 'name' | 'required'> {
  const s = flatSchema(value, r);
  const type = schemaType(s, r);
  const out: Omit<RecipeField, 'name' | 'required'> = { type };
  // An array of scalars states its items' rules (format, enum, pattern, lengths, range): an array has none of
  // those itself, and without them an agent's items fail (AWS account ids are 12 characters, subnet ids
  // match `^subnet-…`).
  const items = type === 'array' ? flatSchema(s.items, r) : {};
  if (type === 'array') {
    out.items = schemaType(items, r);
    if (typeof items.format === 'string' && items.format && typeof s.format !== 'string')
      out.format = items.format.slice(0, 40);
    if (Array.isArray(items.enum) && items.enum.length > 0 && items.enum.length <= MAX_ENUM)
      out.enum = items.enum.map(shortValue).filter((v) => v !== undefined);
  }
  if (typeof s.format === 'string' && s.format) out.format = s.format.slice(0, 40);
  const limits = out.items === 'object' || out.items === 'array' ? s : { ...items, ...s };
  // `const` (OpenAPI 3.1, and discriminators written with it) is an enum of one value.
  const allowedValues = Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : undefined;
  if (allowedValues && allowedValues.length > 0) {
    const values = allowedValues
      .filter((v) => v !== null)
      .map(shortValue)
      .filter((v) => v !== undefined);
    if (values.length > 0 && values.length <= MAX_ENUM) out.enum = values;
    else if (values.length > 0) out.example = values[0];
  }
  // Constraints the value must meet; without them an agent's guess fails validation (AWS ARNs have minLength 50).
  if (typeof limits.pattern === 'string' && limits.pattern.length <= 300) out.pattern = limits.pattern;
  if (typeof limits.minLength === 'number' && limits.minLength > 0) out.min_length = limits.minLength;
  if (typeof limits.maxLength === 'number') out.max_length = limits.maxLength;
  if (typeof limits.minimum === 'number') out.minimum = limits.minimum;
  if (typeof limits.maximum === 'number') out.maximum = limits.maximum;
  if (typeof s.minItems === 'number' && s.minItems > 0) out.min_items = s.minItems;
  // A map that must not be empty (AWS `tags`): `{}` fails.
  if (type === 'object' && typeof s.minProperties === 'number' && s.minProperties > 0)
    out.min_properties = s.minProperties;
  const dflt = shortValue(s.default);
  if (dflt !== undefined) out.default = dflt;
  const example = shortValue(firstExample(outer) ?? firstExample(s));
  // A definition's example that its own rules rule out (Azure: api-version `2018-09-01-privatepreview` where
  // only `2018-09-01-preview` is allowed; `{cEntityId}` for a uuid; a date-time for a date) would be the
  // first value an agent tries; read as the declared type (123456 for a string is "123456"), else left out.
  const fitting = example === undefined || out.example !== undefined ? undefined : fittingExample(out, example);
  if (fitting !== undefined) out.example = fitting;
  return out;
}

/** The object schema an object field (or an array of objects) holds, else undefined. */
function nestedObject(field: Pick<RecipeField, 'type' | 'items'>, prop: unknown, r: Resolver): unknown {
  if (field.type === 'object') return prop;
  return field.type === 'array' && field.items === 'object' ? flatSchema(prop, r).items : undefined;
}

/**
 * Writable fields of an object schema (one level), required first when the list must be cut. With `nest`,
 * an object field lists its own required fields (a second level, required ones only: what a valid value
 * needs, `Updates[].Predicate.Negated`, without the tokens of every optional one).
 */
function fieldsOf(
  value: unknown,
  r: Resolver,
  withDescriptions: boolean,
  nest = false,
): { fields: RecipeField[]; required: Set<string> } {
  const shape = objectShape(value, r);
  const required = new Set(shape.required);
  const fields: RecipeField[] = [];
  for (const [name, raw] of Object.entries(shape.properties)) {
    const prop = r.deref(raw);
    if (!prop || prop.readOnly === true || !name) continue;
    const field: RecipeField = { name: name.slice(0, 200), required: required.has(name), ...describeSchema(prop, r) };
    const description = withDescriptions ? brief(prop.description ?? flatSchema(prop, r).description) : undefined;
    if (description) field.description = description;
    const nested = nest ? nestedObject(field, prop, r) : undefined;
    if (nested !== undefined) {
      const sub = fieldsOf(nested, r, false).fields.filter((f) => f.required);
      if (sub.length > 0) field.fields = sub.map(({ fields: _deeper, ...leaf }) => leaf);
    }
    fields.push(field);
  }
  // A required name the definition forgot to describe (`required: ["name"]` beside a `Name` property) is still
  // required by a validating server: listed as a string so the request carries it.
  for (const name of required) {
    if (name && !(name in shape.properties)) fields.push({ name: name.slice(0, 200), required: true, type: 'string' });
  }
  return { fields: capped(fields, MAX_FIELDS), required };
}

/** At most `max` entries, required ones kept first, definition order otherwise. */
function capped<T extends { required: boolean }>(list: T[], max: number): T[] {
  if (list.length <= max) return list;
  const keep = new Set([...list.filter((x) => x.required), ...list.filter((x) => !x.required)].slice(0, max));
  return list.filter((x) => keep.has(x));
}

/** Body fields of a JSON or form body: top-level fields, object-valued ones with their own fields. */
function bodyParams(schemaValue: unknown, required: boolean, r: Resolver): RecipeParam[] {
  const schema = flatSchema(schemaValue, r);
  const type = schemaType(schema, r);
  if (
    type !== 'object' ||
    !isObject(objectShape(schemaValue, r).properties) ||
    Object.keys(objectShape(schemaValue, r).properties).length === 0
  ) {
    const whole: RecipeParam = { name: 'body', in: 'body', required, ...describeSchema(schemaValue, r) };
    if (type === 'array' && whole.items === 'object') {
      const { fields } = fieldsOf(flatSchema(schema.items, r), r, false, true);
      if (fields.length > 0) whole.fields = fields;
    }
    return [whole];
  }
  const { fields } = fieldsOf(schemaValue, r, true);
  return fields.map((f) => {
    const { name, ...rest } = f;
    const param: RecipeParam = { name, in: 'body', ...rest };
    const nested = nestedObject(f, objectShape(schemaValue, r).properties[f.name], r);
    if (nested !== undefined) {
      const sub = fieldsOf(nested, r, false, true).fields;
      if (sub.length > 0) param.fields = sub;
    }
    return param;
  });
}

interface Body {
  contentType?: string;
  params: RecipeParam[];
}

function requestBody(o: Operation, r: Resolver, doc: Json, formData: Json[], bodyParam: Json | undefined): Body {
  const rb = r.deref(o.op.requestBody);
  if (rb) {
    const content = isObject(rb.content) ? rb.content : {};
    const contentType = chosenMediaType(Object.keys(content));
    const media = contentType === undefined ? undefined : r.deref(content[contentType]);
    const required = rb.required === true;
    if (!media || media.schema === undefined)
      return { contentType, params: contentType ? [{ name: 'body', in: 'body', required, type: 'string' }] : [] };
    return { contentType, params: bodyParams(media.schema, required, r) };
  }
  // Swagger 2.0: `in: body` or `in: formData` parameters, media type from `consumes`.
  const consumes = [o.op.consumes, doc.consumes].find((c) => Array.isArray(c) && c.length > 0) as string[] | undefined;
  if (bodyParam) {
    return {
      contentType: chosenMediaType(consumes ?? ['application/json']),
      params: bodyParams(bodyParam.schema, bodyParam.required === true, r),
    };
  }
  if (formData.length === 0) return { params: [] };
  const hasFile = formData.some((p) => p.type === 'file');
  const form = hasFile
    ? 'multipart/form-data'
    : (consumes?.find((c) => /form/.test(c)) ?? 'application/x-www-form-urlencoded');
  return {
    contentType: form,
    params: formData
      .filter((p) => p.name)
      .map((p) => {
        const param: RecipeParam = {
          name: String(p.name).slice(0, 200),
          in: 'body',
          required: p.required === true,
          ...describeSchema(p, r),
        };
        if (p.type === 'file') param.format = 'binary';
        const description = brief(p.description);
        if (description) param.description = description;
        return param;
      }),
  };
}

function summaryOf(op: Json): string | undefined {
  const raw = typeof op.summary === 'string' && op.summary.trim() ? op.summary : op.description;
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  const text = shortPhrase(raw);
  return text ? text.slice(0, 200) : undefined;
}

export interface RecipeInput {
  o: Operation;
  id: string;
  returns: string;
  doc: Json;
  auth: ApiAuth;
}

export function buildRecipe({ o, id, returns, doc, auth }: RecipeInput, r: Resolver): Recipe {
  const params: RecipeParam[] = [];
  const formData: Json[] = [];
  let bodyParam: Json | undefined;
  for (const p of parametersOf(o, r)) {
    if (p.in === 'formData') {
      formData.push(p);
      continue;
    }
    if (p.in === 'body') {
      bodyParam = p;
      continue;
    }
    if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header' && p.in !== 'cookie') continue;
    if (!p.name) continue; // nameless parameters exist in the wild and cannot be sent
    if (auth.isCredential(p)) continue;
    const schema = p.schema !== undefined ? p.schema : p; // 3.x keeps the schema apart, 2.0 inlines it
    const param: RecipeParam = {
      name: String(p.name).slice(0, 200),
      in: p.in,
      required: p.in === 'path' || p.required === true,
      ...describeSchema(schema, r, p),
    };
    // A path segment cannot be empty: `""` among a path parameter's values (brex `dataset`) cannot be sent.
    if (p.in === 'path' && param.enum?.includes('')) {
      param.enum = param.enum.filter((v) => v !== '');
      if (param.enum.length === 0) delete param.enum;
    }
    // A required header with one allowed value is a constant the API needs (`X-Amz-Target`).
    if (p.in === 'header' && param.enum?.length === 1) {
      param.default ??= param.enum[0];
      delete param.enum;
    }
    const description = brief(p.description);
    if (description) param.description = description;
    params.push(param);
  }
  const body = requestBody(o, r, doc, formData, bodyParam);
  params.push(...body.params);
  const summary = summaryOf(o.op);
  return {
    id,
    method: o.method as HttpMethod,
    path: o.path,
    ...(summary ? { summary } : {}),
    ...(body.contentType ? { content_type: body.contentType.slice(0, 120) } : {}),
    params: capped(params, MAX_PARAMS),
    returns,
    auth: auth.operationAuth(o),
  };
}
