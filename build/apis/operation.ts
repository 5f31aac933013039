// Reading one operation of an OpenAPI 2.0 or 3.x definition: its parameters and the required ones with
// JSON types (path, query and body — what an agent must supply).
// Both versions are read directly rather than converted, so a definition is never rewritten.
import type { HttpMethod, ParamType } from './manifest.ts';
import { isObject, type Json, type Resolver } from './refs.ts';

export interface Operation {
  method: HttpMethod;
  path: string;
  op: Json;
  pathItem: Json;
  /** Position in the definition; the last tie-breaker everywhere, so results never depend on hashing. */
  index: number;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const MAX_PARAMS = 40;

export function listOperations(doc: Json, r: Resolver): Operation[] {
  const out: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    const pathItem = r.deref(raw);
    if (!pathItem) continue;
    for (const method of METHODS) {
      const op = r.deref(pathItem[method.toLowerCase()]);
      if (op) out.push({ method, path, op, pathItem, index: out.length });
    }
  }
  return out;
}

/** Path-level and operation-level parameters, dereferenced; the operation's win on (name, in). */
export function parametersOf(o: Operation, r: Resolver): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [o.pathItem.parameters, o.op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = r.deref(raw);
      if (p && typeof p.name === 'string' && typeof p.in === 'string') byKey.set(`${p.in}:${p.name}`, p);
    }
  }
  return [...byKey.values()];
}

/** Required inputs of any kind (headers included), plus one for a required body: the selection's cost. */
export function requiredCount(o: Operation, r: Resolver): number {
  const params = parametersOf(o, r).filter((p) => p.required === true || p.in === 'path').length;
  const body = r.deref(o.op.requestBody);
  return params + (body?.required === true ? 1 : 0);
}

/** JSON type of a schema (or 2.0 parameter), looking through references and composition. */
export function schemaType(value: unknown, r: Resolver, depth = 0): ParamType {
  const s = r.deref(value);
  if (!s || depth > 4) return 'string';
  const raw = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (raw) {
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    case 'string':
    case 'file':
      return 'string';
  }
  if (s.schema !== undefined) return schemaType(s.schema, r, depth + 1); // 3.x parameter
  if (isObject(s.properties) || s.additionalProperties !== undefined) return 'object';
  if (s.items !== undefined) return 'array';
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) return schemaType(list[0], r, depth + 1);
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const t = typeof s.enum[0];
    if (t === 'number' || t === 'boolean') return t;
  }
  return 'string';
}

const MEDIA_PREFERENCE = [
  /^application\/json\b/,
  /[+/]json\b/,
  /^application\/x-www-form-urlencoded\b/,
  /^multipart\/form-data\b/,
];

/** The media type a request body is sent as: JSON first, then forms, else the first listed. */
export function chosenMediaType(types: readonly string[]): string | undefined {
  return MEDIA_PREFERENCE.map((re) => types.find((t) => re.test(t))).find(Boolean) ?? types[0];
}

/** The schema of a 3.x `content` map, preferring JSON, then forms, then whatever comes first. */
export function contentSchema(content: unknown): unknown {
  if (!isObject(content)) return undefined;
  const chosen = chosenMediaType(Object.keys(content));
  const media = chosen === undefined ? undefined : content[chosen];
  return isObject(media) ? media.schema : undefined;
}

/** Properties and required names of an object schema, merging `allOf` and taking the first `oneOf`/`anyOf`. */
export function objectShape(value: unknown, r: Resolver, depth = 0): { properties: Json; required: string[] } {
  const s = r.deref(value);
  const shape = { properties: {} as Json, required: [] as string[] };
  if (!s || depth > 4) return shape;
  if (isObject(s.properties)) Object.assign(shape.properties, s.properties);
  if (Array.isArray(s.required)) shape.required.push(...s.required.filter((n): n is string => typeof n === 'string'));
  const parts = [...(Array.isArray(s.allOf) ? s.allOf : [])];
  for (const key of ['oneOf', 'anyOf']) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) parts.push(list[0]);
  }
  for (const part of parts) {
    const sub = objectShape(part, r, depth + 1);
    shape.properties = { ...sub.properties, ...shape.properties };
    shape.required.push(...sub.required);
  }
  return shape;
}

/** Required path, query and body parameters with their JSON types (at most MAX_PARAMS). */
export function requiredParams(o: Operation, r: Resolver): Record<string, ParamType> {
  const out: Record<string, ParamType> = {};
  const add = (name: string, type: ParamType) => {
    if (name && !(name in out) && Object.keys(out).length < MAX_PARAMS) out[name] = type;
  };
  let bodySchema: unknown;
  let bodyRequired = false;
  for (const p of parametersOf(o, r)) {
    const name = p.name as string;
    if (p.in === 'path' || (p.in === 'query' && p.required === true)) add(name, schemaType(p, r));
    else if (p.in === 'formData' && p.required === true)
      add(name, schemaType(p, r)); // 2.0 form field
    else if (p.in === 'body') {
      bodySchema = p.schema;
      bodyRequired = p.required === true;
    } // 2.0 body
  }
  const requestBody = r.deref(o.op.requestBody);
  if (requestBody) {
    bodySchema = contentSchema(requestBody.content);
    bodyRequired = requestBody.required === true;
  }
  if (bodySchema === undefined) return out;
  const shape = objectShape(bodySchema, r);
  const before = Object.keys(out).length;
  for (const name of new Set(shape.required)) {
    const prop = r.deref(shape.properties[name]);
    if (prop?.readOnly === true) continue;
    add(name, prop ? schemaType(prop, r) : 'string');
  }
  // A required body without required fields still has to be sent.
  if (bodyRequired && Object.keys(out).length === before) add('body', schemaType(bodySchema, r));
  return out;
}

export type IntentKind = 'search' | 'list' | 'read' | 'create' | 'action' | 'update' | 'delete';

/** How many top-level fields the request body has (3.x requestBody, 2.0 body or formData parameters). */
export function bodyFieldCount(o: Operation, r: Resolver): number {
  const params = parametersOf(o, r);
  const form = params.filter((p) => p.in === 'formData').length;
  if (form > 0) return form;
  const requestBody = r.deref(o.op.requestBody);
  const schema = requestBody ? contentSchema(requestBody.content) : params.find((p) => p.in === 'body')?.schema;
  return schema === undefined ? 0 : Object.keys(objectShape(schema, r).properties).length;
}

/** Input cost outside the body: 0.5 per path parameter, 1 per other required one. */
export function requiredNonBodyCost(o: Operation, r: Resolver): number {
  let cost = 0;
  for (const p of parametersOf(o, r)) {
    if (p.in === 'path') cost += 0.5;
    else if (p.in !== 'body' && p.in !== 'formData' && p.required === true) cost += 1;
  }
  return cost;
}
