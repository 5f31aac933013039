// Whether a definition's example meets the rules its own schema states. An example is the first value an
// agent tries, and definitions give ones their own schema rules out: `{cEntityId}` for a uuid, a
// date-time for a `date`, an ISO date for a number, 123456 for a string. Scalars are first read as the
// declared type (123456 → "123456", "9" → 9), as a client would send them; what still breaks a rule is
// left out of the recipe.
import vm from 'node:vm';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { RecipeField } from './recipe-schema.ts';

type Rules = Omit<RecipeField, 'name' | 'required' | 'example' | 'default' | 'description' | 'fields'>;

type Test = RegExp | ((s: string) => boolean);
type FormatCheck = Test | { type?: string; validate: Test };

function formatFits(format: string, text: string): boolean {
  const check = (fullFormats as Record<string, FormatCheck | boolean | undefined>)[format];
  // A format ajv-formats does not know, or one of numbers (int32, double …): not a rule on this text.
  if (!check || typeof check === 'boolean') return true;
  if (!(check instanceof RegExp) && typeof check !== 'function' && check.type !== undefined && check.type !== 'string')
    return true;
  const test = check instanceof RegExp || typeof check === 'function' ? check : check.validate;
  return test instanceof RegExp ? test.test(text) : test(text);
}

// A definition's pattern run on a definition's example: both come from outside (POST /admin/apis/compile runs
// in the API server), and patterns like `([\/\w .-]*)*` backtrack without end on a text they do not match
// (beezup's URL pattern took 200 s on one example). The test runs in a vm context whose timeout interrupts
// the regular expression; one that does not finish in time is taken as not matching. The timeout is wall time, so
// on a loaded machine an ordinary pattern can miss the first budget: a second, longer one tells it from a pattern
// that backtracks without end (which misses any budget).
const sandbox = vm.createContext({ p: '', f: '', s: '' });
const matchScript = new vm.Script('new RegExp(p, f).test(s)');
const PATTERN_BUDGETS_MS = [50, 1_000];

function patternFits(pattern: string, text: string): boolean {
  for (const flags of ['u', '']) {
    Object.assign(sandbox, { p: pattern, f: flags, s: text });
    for (const timeout of PATTERN_BUDGETS_MS) {
      try {
        return matchScript.runInContext(sandbox, { timeout }) === true;
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') break;
        if (timeout === PATTERN_BUDGETS_MS.at(-1)) return false;
      }
    }
    // a syntax error: AWS and others write patterns the unicode mode refuses (`[\w-]`), read them without it
  }
  return true; // a pattern this engine cannot read at all is not held against the example
}

/** A scalar read as the declared type, or undefined when it cannot be one. */
function asType(type: Rules['type'], value: unknown): unknown {
  switch (type) {
    case 'string':
      return typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : undefined;
    case 'number':
      if (typeof value === 'number') return value;
      return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
        ? Number(value)
        : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
    case 'array':
      return Array.isArray(value) ? value : undefined;
    default:
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  }
}

/** A scalar meeting format, pattern, lengths and range; undefined when it breaks one. */
function scalarFit(rules: Rules, type: Rules['type'], value: unknown): unknown {
  const v = asType(type, value);
  if (v === undefined) return undefined;
  if (typeof v === 'string') {
    if (rules.format && !formatFits(rules.format, v)) return undefined;
    if (rules.pattern && !patternFits(rules.pattern, v)) return undefined;
    if (rules.min_length !== undefined && v.length < rules.min_length) return undefined;
    if (rules.max_length !== undefined && v.length > rules.max_length) return undefined;
  }
  if (typeof v === 'number') {
    if (rules.minimum !== undefined && v < rules.minimum) return undefined;
    if (rules.maximum !== undefined && v > rules.maximum) return undefined;
  }
  return v;
}

/**
 * The example as the field's rules read it, or undefined when they rule it out. For an array of scalars the
 * rules (format, pattern, lengths, range, enum) describe its items, as the recipe states them.
 */
export function fittingExample(rules: Rules, example: unknown): unknown {
  const allowed = (v: unknown) => !rules.enum || rules.enum.some((e) => JSON.stringify(e) === JSON.stringify(v));
  if (rules.type === 'array') {
    // One item written as the example (a query parameter's `a,b` or a single id): kept when it fits the items.
    if (!Array.isArray(example)) {
      const item = scalarFit(rules, (rules.items ?? 'string') as Rules['type'], example);
      return item !== undefined && typeof example !== 'object' && allowed(item) ? example : undefined;
    }
    if (rules.min_items !== undefined && example.length < rules.min_items) return undefined;
    if (rules.items === 'object' || rules.items === 'array' || rules.items === undefined) return example;
    const items = example.map((item) => scalarFit(rules, rules.items as Rules['type'], item));
    return items.every((item) => item !== undefined && allowed(item)) ? items : undefined;
  }
  if (rules.type === 'object') return asType('object', example);
  const v = scalarFit(rules, rules.type, example);
  return v !== undefined && allowed(v) ? v : undefined;
}
