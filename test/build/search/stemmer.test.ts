// Two stemming strengths: inflections are one term, derivational relatives are a family linked by
// expansion only when the suffix is verbal (validate/validation), never adjectival (function/functional).
import lunr from 'lunr';
import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../../../build/search/documents.ts';
import { EXPAND } from '../../../build/search/expand.ts';
import { createSearchIndex } from '../../../build/search/index.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { derivationalKeys, inflectionalStem } from '../../../build/search/stemmer.ts';

const porter = (w: string) => lunr.stemmer(new lunr.Token(w, {})).toString();
const sameFamily = (a: string, b: string) => {
  const keys = derivationalKeys(inflectionalStem(a));
  return derivationalKeys(inflectionalStem(b)).some((k) => keys.includes(k));
};

describe('inflectionalStem', () => {
  it('merges plurals, -ed, -ing and final -e/-y like Porter does', () => {
    for (const group of [
      ['function', 'functions'],
      ['generate', 'generated', 'generates', 'generating'],
      ['parse', 'parsing', 'parsed', 'parses'],
      ['library', 'libraries'],
      ['expression', 'expressions'],
      ['hope', 'hoping'],
      ['control', 'controlled', 'controlling'],
    ])
      expect(new Set(group.map(inflectionalStem)).size).toBe(1);
    // Where Porter only removes inflections, the terms are Porter's (indexes and tests written before agree).
    for (const w of ['passwords', 'hashing', 'yielding', 'years', 'happy', 'agreed', 'feed', 'yaml', 'sqlite'])
      expect(inflectionalStem(w)).toBe(porter(w));
  });

  it('keeps derivational relatives apart that Porter merges', () => {
    expect(porter('functional')).toBe(porter('functions'));
    expect(inflectionalStem('functional')).not.toBe(inflectionalStem('functions'));
    expect(porter('expressions')).toBe('express');
    expect(inflectionalStem('expressions')).not.toBe(inflectionalStem('express'));
    expect(porter('generic')).toBe(porter('generate'));
    expect(inflectionalStem('generic')).not.toBe(inflectionalStem('generate'));
    expect(inflectionalStem('animal')).not.toBe(inflectionalStem('animation'));
  });

  it('finds a full Porter stem among the family keys of every inflectional stem', () => {
    for (const w of ['validated', 'validation', 'dependencies', 'management', 'performance', 'tokenizer', 'converter'])
      expect(derivationalKeys(inflectionalStem(w))).toContain(porter(w));
  });
});

describe('derivational families', () => {
  it('joins verbs and the nouns made of them, not adjectives and abstract nouns', () => {
    const joined = ['validate validation', 'validated validator', 'encrypt encryption', 'perform performance'];
    const apart = ['function functional', 'generate generic', 'general generation', 'electron electronic'];
    joined.push('generate generator', 'depend dependency');
    apart.push('position positive', 'communication community');
    for (const pair of joined) expect(sameFamily(...(pair.split(' ') as [string, string])), pair).toBe(true);
    for (const pair of apart) expect(sameFamily(...(pair.split(' ') as [string, string])), pair).toBe(false);
  });

  it('are linked by the expansion table and count as the typed word in coverage', () => {
    const tool = (i: number, task: string): SearchDocument => ({
      id: `npm-t${i}-v1`,
      kind: 'tool',
      platform: 'npm',
      prior: 0.8,
      fields: { name: `t${i}`, task },
      display: { name: `t${i}`, task, platform: 'npm', reliability: 0.8 },
    });
    const filler = Array.from({ length: 200 }, (_, i) =>
      tool(1000 + i, ['HTTP client', 'Date helper', 'CLI args'][i % 3]!),
    );
    const docs = [
      // Distinct summaries: the learner counts a summary shared by several packages once.
      ...['JSON documents', 'JSON payloads', 'JSON config'].map((w, i) => tool(i, `Validation of ${w}`)),
      ...['form', 'email', 'URL'].map((w, i) => tool(3 + i, `Validate a ${w}`)),
      ...['lists', 'objects', 'strings'].map((w, i) => tool(6 + i, `Functional programming helpers for ${w}`)),
      ...['later', 'once', 'in order'].map((w, i) => tool(9 + i, `Call functions ${w}`)),
      ...filler,
    ];
    const { engine, expansions } = createSearchIndex(docs);
    const validate = inflectionalStem('validate');
    const validation = inflectionalStem('validation');
    expect(expansions.get(validate)).toContainEqual([validation, EXPAND.familyWeight]);
    expect(expansions.get(inflectionalStem('function'))?.map(([t]) => t) ?? []).not.toContain(
      inflectionalStem('functional'),
    );
    const plan = planQuery('validate json', expansions);
    const term = plan.terms.find((t) => t.term === validation);
    const bit = 1 << plan.concepts.indexOf(validate);
    expect(term?.orig).toBe(bit);
    expect((term?.exp ?? 0) & bit).toBe(0);
    expect(engine.search('validate json', { limit: 1 })[0]?.id).toMatch(/^npm-t[012]-v1$/);
    expect(
      engine
        .search('benchmark functions', { limit: 10 })
        .map((h) => h.id)
        .sort(),
    ).toEqual(['npm-t10-v1', 'npm-t11-v1', 'npm-t9-v1']);
  });
});
