// The tax payload of POST /api/v1/tools/{aid}: one TypeBox schema gives the validator used here and the
// OpenAPI component, so the document and the server cannot disagree. Accepted at the top level of the
// body (what existing clients send) or wrapped as {"tax_payload": {...}}.
import Type from 'typebox';
import { createAjv } from '../../build/model/validate-contract.ts';
import { cleanText } from '../../build/model/clean-text.ts';
import { type ItemOverride, validationItems } from './validation.ts';
import { VOTES, type Vote } from '../state/telemetry/types.ts';
import { VALIDATION } from '../messages.ts';
import { invalid, invalidItems } from './errors.ts';

export const TREND_KEYWORD_MAX = 100;
export const MICRO_TRANSLATION_MAX = 200;
// At least two words: a non-space, whitespace, a non-space.
const TWO_WORDS = '\\S\\s+\\S';
const TWO_WORDS_RE = new RegExp(TWO_WORDS);

export const TaxPayload = Type.Object(
  {
    execution_feedback: Type.Integer({
      minimum: 100,
      maximum: 599,
      description: 'HTTP-style status of your last use of the tool: 2xx worked, 4xx/5xx failed.',
      examples: [200],
    }),
    trend_keyword: Type.String({
      minLength: 3,
      maxLength: TREND_KEYWORD_MAX,
      pattern: TWO_WORDS,
      description: 'Your use case in two or more words. Control characters are removed.',
      examples: ['send transactional email'],
    }),
    // null is accepted as "absent" for the optional fields: clients of the original service send it.
    validation_vote: Type.Optional(
      Type.Unsafe<Vote | null>({
        type: ['string', 'null'],
        enum: [...VOTES, null],
        description: 'Did the tool solve your task? Only with direct feedback.',
      }),
    ),
    micro_translation: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        minLength: 1,
        maxLength: MICRO_TRANSLATION_MAX,
        description: 'Answer to micro_task: a one-line command. Queued for human review, never published directly.',
      }),
    ),
  },
  { additionalProperties: false, title: 'TaxPayload' },
);

export const WrappedTaxPayload = Type.Object(
  { tax_payload: Type.Union([TaxPayload, Type.Null()]) },
  { additionalProperties: false, title: 'WrappedTaxPayload' },
);

interface RawTaxPayload {
  execution_feedback: number;
  trend_keyword: string;
  validation_vote?: Vote | null;
  micro_translation?: string | null;
}

export interface ValidTaxPayload {
  execution_feedback: number;
  trend_keyword: string;
  validation_vote?: Vote;
  micro_translation?: string;
}

export type TaxBody = { kind: 'none' } | { kind: 'payload'; payload: ValidTaxPayload };

const check = createAjv().compile(TaxPayload);

// Messages and types follow pydantic v2, which the original service's clients already parse; the rest
// are the shared rules of api/request-body.ts.
const ENUM_MSG = `Input should be ${VOTES.map((v) => `'${v}'`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1')}`;

const taxItem: ItemOverride = (e, at, field) => {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      if (p.type === 'integer') return { loc: at, msg: 'Input should be a valid integer', type: 'int_type' };
      if (String(p.type).startsWith('string'))
        return { loc: at, msg: 'Input should be a valid string', type: 'string_type' };
      return { loc: at, msg: 'Input should be a valid dictionary or object', type: 'model_attributes_type' };
    case 'minLength':
    case 'pattern':
      if (field[0] === 'trend_keyword') return { loc: at, msg: VALIDATION.trendKeywordWords, type: 'value_error' };
      return {
        loc: at,
        msg: `String should have at least ${String(p.limit ?? 1)} character`,
        type: 'string_too_short',
      };
    case 'enum':
      return { loc: at, msg: ENUM_MSG, type: 'enum' };
    default:
      return undefined;
  }
};

function validatePayload(value: unknown, loc: (string | number)[]): ValidTaxPayload {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidItems([{ loc, msg: VALIDATION.notAnObject, type: 'model_attributes_type' }]);
  }
  if (!check(value)) {
    // minLength and pattern both say "two or more words"; validationItems reports each (loc, type, msg) once.
    throw invalidItems(validationItems(check.errors ?? [], loc, taxItem));
  }
  const raw = value as RawTaxPayload;
  const trend_keyword = cleanText(raw.trend_keyword);
  if (!TWO_WORDS_RE.test(trend_keyword)) {
    throw invalid('body', [...loc.slice(1), 'trend_keyword'], VALIDATION.trendKeywordWords, 'value_error');
  }
  const out: ValidTaxPayload = { execution_feedback: raw.execution_feedback, trend_keyword };
  if (raw.validation_vote) out.validation_vote = raw.validation_vote;
  const translation = raw.micro_translation == null ? '' : cleanText(raw.micro_translation);
  if (translation) out.micro_translation = translation;
  return out;
}

/** Reads a parsed request body (undefined = no body). Throws a 422 naming the field on any problem. */
export function parseTaxBody(body: unknown): TaxBody {
  if (body === undefined || body === null) return { kind: 'none' };
  if (typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'tax_payload')) {
    const extra = Object.keys(body).filter((k) => k !== 'tax_payload');
    if (extra.length) {
      throw invalidItems(extra.map((k) => ({ loc: ['body', k], msg: VALIDATION.extra, type: 'extra_forbidden' })));
    }
    const inner = (body as { tax_payload: unknown }).tax_payload;
    if (inner === null) return { kind: 'none' };
    return { kind: 'payload', payload: validatePayload(inner, ['body', 'tax_payload']) };
  }
  return { kind: 'payload', payload: validatePayload(body, ['body']) };
}
