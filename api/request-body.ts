// Validates admin and contribution request bodies against their TypeBox schemas (the same schemas the
// OpenAPI document shows) and answers a 422 naming each bad field, FastAPI style.
import type { ErrorObject } from 'ajv';
import type { TSchema } from 'typebox';
import { createAjv } from '../build/validate-contract.ts';
import { type ValidationItem, validationError } from './errors.ts';
import { pointerSegments } from './catalog-writes.ts';

const ajv = createAjv();

function item(e: ErrorObject, prefix: (string | number)[]): ValidationItem {
  const at = [...prefix, ...pointerSegments(e.instancePath)];
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return { loc: [...at, String(p.missingProperty)], msg: 'Field required', type: 'missing' };
    case 'additionalProperties': return { loc: [...at, String(p.additionalProperty)], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
    case 'type': return { loc: at, msg: `Input should be ${String(p.type).replace(',', ' or ')}`, type: `${String(p.type).split(',')[0]}_type` };
    case 'minimum': return { loc: at, msg: `Input should be greater than or equal to ${String(p.limit)}`, type: 'greater_than_equal' };
    case 'maximum': return { loc: at, msg: `Input should be less than or equal to ${String(p.limit)}`, type: 'less_than_equal' };
    case 'maxItems': return { loc: at, msg: `List should have at most ${String(p.limit)} items`, type: 'too_long' };
    case 'maxLength': return { loc: at, msg: `String should have at most ${String(p.limit)} characters`, type: 'string_too_long' };
    case 'minLength': return { loc: at, msg: `String should have at least ${String(p.limit)} character(s)`, type: 'string_too_short' };
    case 'format': return { loc: at, msg: `Input should be a valid ${String(p.format)}`, type: 'value_error' };
    case 'enum': return { loc: at, msg: `Input should be one of ${(p.allowedValues as unknown[]).map((v) => `'${String(v)}'`).join(', ')}`, type: 'enum' };
    default: return { loc: at, msg: e.message ?? 'Invalid value', type: 'value_error' };
  }
}

/** A checker for one body schema: returns the value typed, or throws the 422 (undefined = no body). */
export function bodyChecker<T>(schema: TSchema): (value: unknown, prefix?: (string | number)[]) => T {
  const check = ajv.compile(schema);
  return (value, prefix = ['body']) => {
    if (value === undefined) throw validationError([{ loc: prefix, msg: 'Field required', type: 'missing' }]);
    if (!check(value)) {
      const items = (check.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').slice(0, 100).map((e) => item(e, prefix));
      throw validationError(items.filter((it, i) => items.findIndex((o) => JSON.stringify(o) === JSON.stringify(it)) === i));
    }
    return value as T;
  };
}
