// Question forms that name an operation (build/search/questions.ts): "how many" asks to count.
import { describe, expect, it } from 'vitest';
import { planQuery } from '../../../build/search/plan.ts';
import { readQuestions } from '../../../build/search/questions.ts';
import { firstAnswer } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

describe('readQuestions', () => {
  it('reads "how many" as count and leaves other words alone', () => {
    expect(readQuestions('how many files are there in this zip archive')).toBe(
      'count files are there in this zip archive',
    );
    expect(readQuestions('show many files')).toBe('show many files');
    expect(planQuery('how many files are there in this zip archive', new Map()).concepts).toEqual(
      expect.arrayContaining(['count', 'zip', 'archiv']),
    );
    expect(planQuery('how many files are there in this zip archive', new Map()).concepts).not.toContain('mani');
  });
});

describe('ranking with question forms', () => {
  it('answers "how many files" with the tool that counts them, not a more reliable archive maker', () => {
    const contracts = [
      sampleContract('npm-zip-maker-v1', {
        identity: { task: 'Create ZIP archives of files', tags: ['zip', 'archive'] },
        trust: { reliability_score: 0.97 },
      }),
      sampleContract('npm-zip-counter-v1', {
        identity: { task: 'Count the entries of a ZIP archive', tags: ['zip'] },
        trust: { reliability_score: 0.8 },
      }),
    ];
    expect(firstAnswer(contracts, 'how many files are there in this zip archive')).toBe('npm-zip-counter-v1');
  });
});
