// Text analysis corner cases: nothing a user can type may throw, queries are clipped, and the
// same word is analysed the same way everywhere.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planQuery } from '../../../build/search/plan.ts';
import { analyze, MAX_QUERY_CHARS, nameKey, normalizeText } from '../../../build/search/tokenize.ts';
import { firstAnswer } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const NASTY = [
  '',
  ' ',
  'a',
  'é',
  '*',
  '+',
  '-',
  ':',
  '~',
  '^',
  '+hash -password',
  'title:foo',
  'foo~2',
  'boost^10',
  'wild*card',
  '* + - : ~ ^',
  '!!!',
  '"quoted"',
  '(paren)',
  '[]{}',
  '\\',
  '/',
  '\u0000',
  '\uD800',
  '\uDC00x',
  '😀🔥',
  'ﬁle',
  'İstanbul',
  'straße',
  'привет мир',
  '画像をリサイズ',
  '이미지 크기',
  'مرحبا بالعالم',
  'हैश पासवर्ड',
  'x'.repeat(1000),
  'hash '.repeat(300),
  'constructor',
  '__proto__',
  'toString valueOf hasOwnProperty',
  'e-mail node.js @scope/name py-yaml sqlite3',
];

describe('tokenize', () => {
  it('never throws on awkward input, and always returns strings', () => {
    for (const s of NASTY) {
      expect(() => analyze(s)).not.toThrow();
      expect(() => planQuery(s, new Map())).not.toThrow();
      for (const t of analyze(s)) expect(typeof t).toBe('string');
    }
    for (const v of [null, undefined, 42, {}, []]) expect(() => analyze(v)).not.toThrow();
  });

  it('never throws on arbitrary strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (s) => {
        analyze(s);
        planQuery(s, new Map());
        nameKey(s);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        analyze(s);
        planQuery(s, new Map());
      }),
      { numRuns: 300 },
    );
  });

  it('clips queries to 200 characters before analysis', () => {
    expect(normalizeText('y'.repeat(1000), MAX_QUERY_CHARS)).toHaveLength(200);
    const long = `${'pad '.repeat(60)}zebra`; // "zebra" starts past character 200
    expect(long.indexOf('zebra')).toBeGreaterThan(200);
    expect(planQuery(long, new Map()).concepts).not.toContain('zebra');
    expect(planQuery('zebra', new Map()).concepts).toEqual(['zebra']);
  });

  it('stems, drops stop words and single letters, splits compounds', () => {
    expect(analyze('Hashing the passwords')).toEqual(['hash', 'password']);
    expect(analyze('e-mail')).toEqual(['mail', 'email']);
    expect(analyze('Optimised tokeniser colour')).toEqual(analyze('optimized tokenizer color'));
    expect(analyze('pyyaml', { name: true })).toEqual(['pyyaml', 'yaml']);
    expect(analyze('better-sqlite3', { name: true })).toEqual(['better', 'sqlite3', 'sqlite']);
  });

  it('drops a word whose stem is a stop word ("one" is not "on", "getting" not "get")', () => {
    expect(analyze('one per line')).toEqual(['per', 'line']);
    expect(analyze('getting the others')).toEqual([]);
    expect(planQuery('list every date, one per line', new Map()).concepts).not.toContain('on');
  });

  it('keeps "every", which lunr drops as a stop word, as a word like "each"', () => {
    expect(analyze('list every date, each day')).toEqual(['list', 'everi', 'date', 'each', 'day']);
    const contracts = [
      sampleContract('npm-date-holidays-v1', {
        identity: { name: 'date-holidays', task: 'List the public holidays of a country for a year' },
        trust: { reliability_score: 0.97 },
      }),
      sampleContract('npm-date-range-v1', {
        identity: {
          task: 'List every date in a date range, from a start date to an end date inclusive, or every week',
        },
        trust: { reliability_score: 0.8 },
      }),
    ];
    expect(firstAnswer(contracts, 'list every date from 2024-02-26 to 2024-03-02')).toBe('npm-date-range-v1');
  });

  it('indexes the letters of a versioned word in prose too (HTML5, CSS3, python3)', () => {
    expect(analyze('An HTML5 parser')).toEqual(['html5', 'html', 'parser']);
    expect(analyze('CSS3 and python3')).toEqual(['css3', 'css', 'python3', 'python']);
    // Two letters are not a word: no "es" from es2015, no "md" from md5.
    expect(analyze('es2015 md5')).toEqual(['es2015', 'md5']);
  });

  it('stems inflections only: "functions" is not "functional", "expressions" not "express"', () => {
    expect(analyze('functions')).toEqual(analyze('function'));
    expect(analyze('functional')).not.toEqual(analyze('functions'));
    expect(analyze('regular expressions')).not.toContain(analyze('express')[0]);
    expect(analyze('generated')).toEqual(analyze('generating'));
    expect(analyze('generic')).not.toEqual(analyze('generate'));
  });

  it('keeps non-Latin words searchable (CJK as bigrams)', () => {
    expect(analyze('привет')).toEqual(['привет']);
    expect(analyze('画像処理')).toEqual(['画像', '像処', '処理']);
  });

  it('turns platform words into a preference, generic words into low-weight concepts', () => {
    const p = planQuery('parse yaml in python', new Map());
    expect(p.platform).toBe('pypi');
    expect(p.concepts).toEqual(['pars', 'yaml']);
    const f = planQuery('show interactive maps', new Map());
    expect(f.conceptScale[f.concepts.indexOf('show')]).toBeLessThan(1);
    // A kind of product ("framework", "sdk") is not the topic: "llm framework" is about LLMs, not web frameworks.
    const kind = planQuery('llm framework', new Map());
    expect(kind.conceptScale[kind.concepts.indexOf('framework')]).toBeLessThan(1);
    expect(kind.conceptScale[kind.concepts.indexOf('llm')]).toBe(1);
    expect(planQuery('python', new Map()).concepts).toEqual(['python']);
  });

  it('gives the same exact-name key for spellings of one name', () => {
    expect(nameKey('@sendgrid/mail')).toBe(nameKey('SendGrid Mail'));
    expect(nameKey('js-yaml')).toBe('jsyaml');
  });
});
