// Which task input goes to which placeholder: the whole assignment (assign.ts), the need's direction and order,
// and option values named by their words (need-values.ts), as fillPlaceholders applies them.
import { describe, expect, it } from 'vitest';
import { bestAssignment } from '../../../build/eval/agent/assign.ts';
import { datePatternFor, quotedTexts } from '../../../build/eval/agent/date-pattern.ts';
import { fillPlaceholders, type HeldInput } from '../../../build/eval/agent/fill.ts';
import { optionNamedByNeed, placeholderSide, valueMention } from '../../../build/eval/agent/need-values.ts';
import type { SchemaObject } from '../../../build/model/contract.ts';

const text = (description: string, extra: object = {}) =>
  ({ type: 'string', role: 'text', description, ...extra }) as const;
const fill = (schema: SchemaObject, placeholders: string[], inputs: HeldInput[], need: string) =>
  fillPlaceholders({ schema, placeholders, inputs, staged: {}, outDir: '.', need });

describe('bestAssignment', () => {
  const any = () => ({ name: 0, direction: 0, content: false });
  it('places every input that must be placed before anything else', () => {
    // Input 0 fits both placeholders, input 1 only the first: a first-fit in order would leave input 1 out.
    const pair = (p: number, i: number) => (i === 1 && p === 1 ? null : any());
    expect(bestAssignment(2, 2, pair, [undefined, undefined], [true, true])).toEqual([1, 0]);
  });

  it('prefers required inputs to numbers, then names, then direction, then the order the need gives', () => {
    // A number and a text compete for one placeholder: the text wins.
    expect(bestAssignment(1, 2, () => any(), [undefined, undefined], [false, true])).toEqual([-1, 0]);
    const named = (p: number, i: number) => ({ ...any(), name: p === 1 && i === 0 ? 2 : 0 });
    expect(bestAssignment(2, 2, named, [undefined, undefined], [true, true])).toEqual([1, 0]);
    const directed = (p: number, i: number) => ({ ...any(), direction: p === 0 && i === 1 ? 1 : 0 });
    expect(bestAssignment(2, 2, directed, [undefined, undefined], [true, true])).toEqual([1, 0]);
    // The need mentions input 1 first: it takes the first placeholder.
    expect(bestAssignment(2, 2, () => any(), [9, 2], [true, true])).toEqual([1, 0]);
    expect(bestAssignment(2, 2, () => any(), [undefined, undefined], [true, true])).toEqual([0, 1]);
  });
});

describe('filling with the whole need in view', () => {
  it('hands dates over in the order the need says them, whatever the input names', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: { from: text('Start date (YYYY-MM-DD)'), to: text('End date (YYYY-MM-DD)') },
    };
    const r = fill(
      schema,
      ['from', 'to'],
      [
        { name: 'date', role: 'text', value: '2024-03-01' },
        { name: 'birthdate', role: 'text', value: '1990-07-15' },
      ],
      'how old is someone born on 1990-07-15 on 2024-03-01',
    );
    expect(r.values).toEqual({ from: '1990-07-15', to: '2024-03-01' });
  });

  it('puts a value the need says "to" into the target-side placeholder', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        when: text('Date-time'),
        from_zone: text('Source IANA time zone', { examples: ['America/New_York'] }),
        to_zone: text('Target IANA time zone', { examples: ['Asia/Tokyo'] }),
      },
    };
    const r = fill(
      schema,
      ['when', 'from_zone', 'to_zone'],
      [
        { name: 'when', role: 'text', value: '2024-01-10T14:30:00Z' },
        { name: 'zone', role: 'text', value: 'America/Los_Angeles' },
      ],
      'convert 14:30 UTC on 2024-01-10 to Los Angeles time',
    );
    expect(r.values).toMatchObject({ to_zone: 'America/Los_Angeles', from_zone: 'America/New_York' });
  });

  it('names sides and finds mentions as whole words', () => {
    expect(placeholderSide('from_zone')).toBe('source');
    expect(placeholderSide('to')).toBe('target');
    expect(placeholderSide('output_format')).toBe('target');
    expect(placeholderSide('zone')).toBe(null);
    expect(valueMention('move it from Paris to Los Angeles', 'America/Los_Angeles')).toEqual({ at: 5, side: 'target' });
    expect(valueMention('move it from Paris to Tokyo', 'Europe/Paris')).toEqual({ at: 3, side: 'source' });
    expect(valueMention('the year 2023 has 3 quarters', '3')).toEqual({ at: 4, side: null });
    expect(valueMention("next runs of '0 9 * * 1'", '0 9 * * 1')).toEqual({ at: 3, side: null });
    expect(valueMention('nothing here', 'Tokyo')).toBe(undefined);
  });
});

describe('optionNamedByNeed by the words of a value', () => {
  const checks = ['isEmail', 'isURL', 'isMobilePhone', 'isPostalCode', 'isCreditCard'];
  it('takes the value whose words the need uses, when one leads', () => {
    expect(optionNamedByNeed('check', checks, 'check whether a phone number is valid')).toBe('isMobilePhone');
    expect(optionNamedByNeed('check', checks, 'validate the postal codes of a list')).toBe('isPostalCode');
    // An exact name still wins, and nothing is guessed from words every value shares or none uses.
    expect(optionNamedByNeed('check', checks, 'isURL on a phone link')).toBe('isURL');
    expect(optionNamedByNeed('check', checks, 'is this valid')).toBe(undefined);
    expect(optionNamedByNeed('mode', ['to-upper', 'to-lower-case'], 'lower case it')).toBe('to-lower-case');
    expect(optionNamedByNeed('mode', ['card-front', 'card-back'], 'print the card')).toBe(undefined);
  });
});

describe('date patterns from the example a need shows', () => {
  it('writes the pattern in the syntax of the contract example', () => {
    expect(datePatternFor('Thursday, July 4, 2024', '2024-07-04', 'yyyy-MM-dd')).toBe('EEEE, MMMM d, yyyy');
    expect(datePatternFor('Thursday, July 4, 2024', '2024-07-04', 'YYYY-MM-DD HH:mm')).toBe('dddd, MMMM D, YYYY');
    expect(datePatternFor('Thursday, July 4, 2024', '2024-07-04', '%Y-%m-%d')).toBe('%A, %B %-d, %Y');
    expect(datePatternFor('04/07/2024 14:30', '2024-07-04T14:30:00Z', 'dd.MM.yyyy')).toBe('dd/MM/yyyy HH:mm');
    expect(datePatternFor('4 Jul 24', '2024-07-04', 'YYYY')).toBe('D MMM YY');
    // Words that are no part of the date are quoted literally in dialects that need it, else refused.
    expect(datePatternFor('July 4th', '2024-07-04', 'yyyy')).toBe(null);
    expect(datePatternFor('Thursday, July 4, 2024', '2024-07-04', 'a text')).toBe(null);
    expect(datePatternFor('Thursday', 'not a date', 'yyyy')).toBe(null);
    expect(quotedTexts(`format it as 'Thursday, July 4' or "4/7"`)).toEqual(['Thursday, July 4', '4/7']);
  });

  it('fills a pattern placeholder from the shown form instead of its default', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        date: text('Date in ISO 8601'),
        pattern: { type: 'string', role: 'option', description: 'format pattern', default: 'yyyy-MM-dd HH:mm' },
      },
    };
    const r = fill(
      schema,
      ['date', 'pattern'],
      [{ name: 'date', role: 'text', value: '2024-07-04' }],
      "format the date 2024-07-04 as 'Thursday, July 4, 2024'",
    );
    expect(r.values).toEqual({ date: '2024-07-04', pattern: 'EEEE, MMMM d, yyyy' });
    expect(r.sources.pattern).toBe('need');
    // Nothing shown: the default stays.
    expect(fill(schema, ['date', 'pattern'], [], 'format the date 2024-07-04').values.pattern).toBe('yyyy-MM-dd HH:mm');
  });
});
