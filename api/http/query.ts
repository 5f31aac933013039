// Query parameters: the readers that enforce their schemas (services/requests.ts, also the OpenAPI
// parameters) with FastAPI-style 422 items. A repeated parameter takes its last value, as FastAPI does.
import type { H3Event } from 'h3';
import { VALIDATION } from '../messages.ts';
import { invalid } from '../services/errors.ts';
import { FORMAT_PATTERN, Q_MAX } from '../services/requests.ts';
import { cleanText } from '../../build/model/clean-text.ts';

const last = (event: H3Event, name: string): string | undefined => event.url.searchParams.getAll(name).at(-1);

/** Search text, cleaned; '' when absent and optional. */
export function textQuery(event: H3Event, name: string, options: { required: boolean }): string {
  const raw = last(event, name);
  if (raw === undefined) {
    if (options.required) throw invalid('query', name, VALIDATION.required, 'missing');
    return '';
  }
  if (raw.length > Q_MAX) throw invalid('query', name, VALIDATION.tooLong(Q_MAX), 'string_too_long');
  return cleanText(raw);
}

export function intQuery(
  event: H3Event,
  name: string,
  schema: { minimum: number; maximum: number; default: number },
): number {
  const raw = last(event, name);
  if (raw === undefined) return schema.default;
  if (!/^\s*[+-]?\d{1,15}\s*$/.test(raw)) {
    throw invalid('query', name, VALIDATION.notAnInteger, 'int_parsing');
  }
  const n = Number(raw);
  if (n < schema.minimum) throw invalid('query', name, VALIDATION.atLeast(schema.minimum), 'greater_than_equal');
  if (n > schema.maximum) throw invalid('query', name, VALIDATION.atMost(schema.maximum), 'less_than_equal');
  return n;
}

// The spellings pydantic reads as booleans, so clients of a FastAPI service send what they already send.
const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** A boolean flag (true/false, 1/0, yes/no, on/off, case-insensitive); false when absent or empty. */
export function boolQuery(event: H3Event, name: string): boolean {
  const raw = (last(event, name) ?? '').trim().toLowerCase();
  if (raw === '' || FALSE.has(raw)) return false;
  if (TRUE.has(raw)) return true;
  throw invalid('query', name, VALIDATION.notABoolean, 'bool_parsing');
}

/** An enum value, matched case-insensitively; '' (absent or empty) means no filter. */
export function enumQuery<T extends string>(event: H3Event, name: string, values: readonly T[]): T | '' {
  const raw = (last(event, name) ?? '').trim().toLowerCase();
  if (raw === '') return '';
  if ((values as readonly string[]).includes(raw)) return raw as T;
  const list = values
    .map((v) => `'${v}'`)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1');
  throw invalid('query', name, VALIDATION.oneOf(list), 'enum');
}

/** A comma-separated list, lower-cased and trimmed; [] when absent or empty; at most `max` items. */
function commaList(event: H3Event, name: string, max: number): string[] {
  const raw = (last(event, name) ?? '').trim().toLowerCase();
  if (raw === '') return [];
  const items = raw.split(',').map((s) => s.trim());
  if (items.length > max) throw invalid('query', name, VALIDATION.atMostItems(max), 'too_long');
  return items;
}

/**
 * A comma-separated list of enum values (repeats kept: "input_file,input_file" is two files), matched
 * case-insensitively; [] when absent or empty.
 */
export function listQuery<T extends string>(event: H3Event, name: string, values: readonly T[], max: number): T[] {
  const items = commaList(event, name, max);
  for (const item of items) {
    if (!(values as readonly string[]).includes(item))
      throw invalid('query', name, VALIDATION.oneOfValues([...values]), 'enum');
  }
  return items as T[];
}

const FORMAT = new RegExp(FORMAT_PATTERN);

/** A comma-separated list of file formats or extensions, lower-cased; [] when absent or empty. */
export function formatsQuery(event: H3Event, name: string, max: number): string[] {
  const items = commaList(event, name, max);
  for (const item of items) {
    if (!FORMAT.test(item)) throw invalid('query', name, VALIDATION.pattern(FORMAT_PATTERN), 'string_pattern_mismatch');
  }
  return items;
}
