// Query parameters: their TypeBox schemas (also the OpenAPI parameters) and the readers that enforce them
// with FastAPI-style 422 items. A repeated parameter takes its last value, as FastAPI does.
import type { H3Event } from 'h3';
import Type from 'typebox';
import { PLATFORMS } from '../../build/model/contract.ts';
import { invalid } from './errors.ts';
import { cleanText } from '../services/tax-payload.ts';

export const Q_MAX = 500;

export const LIMIT = { minimum: 1, maximum: 20, default: 10 };

export const QuerySchemas = {
  q: Type.String({ maxLength: Q_MAX, description: 'Keywords or an intent phrase ("send transactional email"). Control characters are removed.' }),
  category: Type.Enum([...PLATFORMS], { description: 'Only tools from this source platform.' }),
  limit: Type.Integer({ ...LIMIT, description: 'How many tools, 1 to 20.' }),
};

const last = (event: H3Event, name: string): string | undefined => event.url.searchParams.getAll(name).at(-1);

/** Search text, cleaned; '' when absent and optional. */
export function textQuery(event: H3Event, name: string, options: { required: boolean }): string {
  const raw = last(event, name);
  if (raw === undefined) {
    if (options.required) throw invalid('query', name, 'Field required', 'missing');
    return '';
  }
  if (raw.length > Q_MAX) throw invalid('query', name, `String should have at most ${Q_MAX} characters`, 'string_too_long');
  return cleanText(raw);
}

export function intQuery(event: H3Event, name: string, schema: { minimum: number; maximum: number; default: number }): number {
  const raw = last(event, name);
  if (raw === undefined) return schema.default;
  if (!/^\s*[+-]?\d{1,15}\s*$/.test(raw)) {
    throw invalid('query', name, 'Input should be a valid integer, unable to parse string as an integer', 'int_parsing');
  }
  const n = Number(raw);
  if (n < schema.minimum) throw invalid('query', name, `Input should be greater than or equal to ${schema.minimum}`, 'greater_than_equal');
  if (n > schema.maximum) throw invalid('query', name, `Input should be less than or equal to ${schema.maximum}`, 'less_than_equal');
  return n;
}

/** An enum value, matched case-insensitively; '' (absent or empty) means no filter. */
export function enumQuery<T extends string>(event: H3Event, name: string, values: readonly T[]): T | '' {
  const raw = (last(event, name) ?? '').trim().toLowerCase();
  if (raw === '') return '';
  if ((values as readonly string[]).includes(raw)) return raw as T;
  const list = values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1');
  throw invalid('query', name, `Input should be ${list}`, 'enum');
}
