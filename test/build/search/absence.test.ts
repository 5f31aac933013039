// What a need says is absent (build/search/absence.ts): "images with no alt text" asks for a checker of the absence,
// not a lister of images with their alt text.
import { describe, expect, it } from 'vitest';
import { absenceTerms } from '../../../build/search/absence.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { expectStaticAgrees, rankingIndex } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

describe('absenceTerms', () => {
  it('reads "no", "without", "missing" and "lacking" with the words after them, up to their phrase end', () => {
    expect(absenceTerms('which images on this page have no alt text? list their src')).toEqual(['-alt', '-text']);
    expect(absenceTerms('Find images without alt text, form fields without labels')).toEqual([
      '-alt',
      '-text',
      '-label',
    ]);
    expect(absenceTerms('decode a JWT without verifying the signature')).toEqual(['-verifi']);
    expect(absenceTerms('list the images of a page')).toEqual([]);
    expect(absenceTerms('no')).toEqual([]);
  });
});

describe('ranking by what a need says is absent', () => {
  const lister = sampleContract('npm-lister-v1', {
    identity: {
      task: 'List the URLs an HTML file references: links (href and text), images (src and alt), scripts',
      tags: ['html', 'images', 'links'],
    },
    trust: { reliability_score: 0.97 },
  });
  const checker = sampleContract('npm-checker-v1', {
    identity: {
      task: 'Check an HTML page for accessibility problems: images without alt text, buttons without names',
      tags: ['accessibility', 'html'],
    },
    trust: { reliability_score: 0.85 },
  });
  const { docs, built, first } = rankingIndex([lister, checker]);

  it('puts the tool about the absence above the one about the thing, and both engines agree', async () => {
    const q = 'which images on this page have no alt text? list their src';
    expect(planQuery(q, new Map()).concepts).toContain('-alt');
    expect(first(q)).toBe('npm-checker-v1');
    // Without the absence, the lister's words and trust win as before.
    expect(first('list the images of this page with their src and alt text')).toBe('npm-lister-v1');
    await expectStaticAgrees(docs, built, [q]);
  });
});
