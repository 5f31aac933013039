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

  it('reads a question opening with an auxiliary verb as a check', () => {
    expect(readQuestions("does the commit message 'x' follow the conventional commits format?")).toBe(
      "check does the commit message 'x' follow the conventional commits format?",
    );
    expect(planQuery('is 2024 a leap year', new Map()).concepts).toContain('check');
    expect(readQuestions('this is a test')).toBe('this is a test');
    expect(readQuestions('is the year 1900 a leap year or not')).toBe('check is the year 1900 a leap year or not');
    expect(readQuestions('is going from 1.4.2 to 1.6.0 a major, minor or patch update')).toBe(
      'is going from 1.4.2 to 1.6.0 a major, minor or patch update',
    );
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

  it('answers a yes-or-no question with the tool that checks, not a more reliable parser of the same thing', () => {
    const contracts = [
      sampleContract('npm-commit-parser-v1', {
        identity: { task: 'Parse a Conventional Commits message into type, scope and subject', tags: ['commit'] },
        trust: { reliability_score: 0.97 },
      }),
      sampleContract('npm-commit-checker-v1', {
        identity: { task: 'Check a commit message against the Conventional Commits rules', tags: ['commit'] },
        trust: { reliability_score: 0.85 },
      }),
    ];
    const q = "does the commit message 'Added new login page' follow the Conventional Commits format?";
    expect(firstAnswer(contracts, q)).toBe('npm-commit-checker-v1');
  });
});
