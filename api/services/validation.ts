// Validates request bodies against their TypeBox schemas (the same schemas the OpenAPI document shows) and
// throws an `invalid` domain error naming each bad field, FastAPI style. The translation of validator errors
// into those items is shared with the tax payload (tax-payload.ts), which overrides only the messages its
// original clients expect.
import type { ErrorObject } from 'ajv';
import type { TSchema } from 'typebox';
import { createAjv } from '../../build/model/validate-contract.ts';
import { VALIDATION } from '../messages.ts';
import { invalidItems, pointerSegments, type ValidationItem } from './errors.ts';

const ajv = createAjv();

type Loc = (string | number)[];

/**
 * A caller's own item for some errors: `at` is the full loc (prefix included), `field` the loc inside the
 * validated value; undefined leaves the error to the shared rules.
 */
export type ItemOverride = (e: ErrorObject, at: Loc, field: Loc) => ValidationItem | undefined;

function item(e: ErrorObject, at: Loc): ValidationItem {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { loc: [...at, String(p.missingProperty)], msg: VALIDATION.required, type: 'missing' };
    case 'additionalProperties':
      return { loc: [...at, String(p.additionalProperty)], msg: VALIDATION.extra, type: 'extra_forbidden' };
    case 'type':
      return { loc: at, msg: VALIDATION.ofType(String(p.type)), type: `${String(p.type).split(',')[0]}_type` };
    case 'minimum':
      return { loc: at, msg: VALIDATION.atLeast(Number(p.limit)), type: 'greater_than_equal' };
    case 'maximum':
      return { loc: at, msg: VALIDATION.atMost(Number(p.limit)), type: 'less_than_equal' };
    case 'maxItems':
      return { loc: at, msg: VALIDATION.atMostItems(Number(p.limit)), type: 'too_long' };
    case 'minItems':
      return { loc: at, msg: VALIDATION.atLeastItems(Number(p.limit)), type: 'too_short' };
    case 'maxLength':
      return { loc: at, msg: VALIDATION.tooLong(Number(p.limit)), type: 'string_too_long' };
    case 'minLength':
      return { loc: at, msg: VALIDATION.tooShort(Number(p.limit)), type: 'string_too_short' };
    case 'format':
      return { loc: at, msg: VALIDATION.ofFormat(String(p.format)), type: 'value_error' };
    case 'enum':
      return { loc: at, msg: VALIDATION.oneOfValues(p.allowedValues as unknown[]), type: 'enum' };
    default:
      return { loc: at, msg: e.message ?? VALIDATION.invalidValue, type: 'value_error' };
  }
}

/** Validator errors as FastAPI-style 422 items under `prefix`, in order, each (loc, msg, type) once. */
export function validationItems(
  errors: readonly ErrorObject[],
  prefix: Loc,
  override?: ItemOverride,
): ValidationItem[] {
  const seen = new Set<string>();
  const out: ValidationItem[] = [];
  for (const e of errors) {
    const field = pointerSegments(e.instancePath);
    const at = [...prefix, ...field];
    const it = override?.(e, at, field) ?? item(e, at);
    const key = JSON.stringify(it);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(it);
  }
  return out;
}

/** A checker for one body schema: returns the value typed, or throws `invalid` (undefined = no body). */
export function bodyChecker<T>(schema: TSchema): (value: unknown, prefix?: Loc) => T {
  const check = ajv.compile(schema);
  return (value, prefix = ['body']) => {
    if (value === undefined) throw invalidItems([{ loc: prefix, msg: VALIDATION.required, type: 'missing' }]);
    if (!check(value)) {
      const errors = (check.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').slice(0, 100);
      throw invalidItems(validationItems(errors, prefix));
    }
    return value as T;
  };
}
