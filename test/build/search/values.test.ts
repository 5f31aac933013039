// A need's data values against the values a command takes (build/search/values.ts): an agent that sends only its
// words ("how many days are there from 2023-12-25 to 2024-02-14") should get a command that can take both dates.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { documentFromContract } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { heldValues, takesTerms } from '../../../build/search/values.ts';
import { expectStaticAgrees, lintFillers } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const dateTool = (aid: string, cmd: string, properties: Record<string, object>, reliability = 0.9) =>
  sampleContract(aid, {
    identity: { task: 'Count the days between dates or add days to a date', tags: ['date', 'days'] },
    logic: { input_schema: { type: 'object', properties }, output_schema: { type: 'string' } },
    action: { execute_cmd: cmd },
    trust: { reliability_score: reliability },
  });

// Same words; the one that takes a single date is the more reliable, so words alone rank it first.
const oneDate = dateTool('npm-alpha-v1', 'alpha {date}', { date: { type: 'string', role: 'text' } }, 0.97);
const twoDates = dateTool(
  'npm-beta-v1',
  'beta {start} {end}',
  { start: { type: 'string', role: 'text' }, end: { type: 'string', role: 'text' } },
  0.8,
);
const fileOnly = dateTool('npm-gamma-v1', 'gamma {file}', { file: { type: 'string', role: 'input_file' } });

describe('heldValues', () => {
  it('counts dates, times, addresses, versions and quoted phrases, not words, bare numbers or apostrophes', () => {
    expect(heldValues('how many days are there from 2023-12-25 to 2024-02-14')).toBe(2);
    expect(heldValues("turn the phrase 'next friday' into a date, counting from 2024-04-15")).toBe(2);
    expect(heldValues('is the ip address 10.20.30.40 inside the network 10.20.0.0/16')).toBe(2);
    expect(heldValues('add 45 days to the date 2024-01-20')).toBe(1);
    expect(heldValues("what's the dominant colour of this photo's pixels")).toBe(0);
    expect(heldValues('generate a code 128 barcode')).toBe(0);
  });
});

describe('takesTerms', () => {
  it('names how many text, URL or JSON values a command takes: one, or two and more', () => {
    expect(takesTerms(oneDate)).toEqual(['#1']);
    expect(takesTerms(twoDates)).toEqual(['#1', '#2']);
    expect(takesTerms(fileOnly)).toEqual([]);
    expect(takesTerms(sampleContract('npm-none-v1'))).toEqual([]);
  });
});

describe('ranking by the values a need holds', () => {
  const filler = lintFillers();
  const docs = [...filler, oneDate, twoDates, fileOnly].map(documentFromContract);
  const built = createSearchIndex(docs);
  const ids = (q: string) => built.engine.search(q, { limit: 3 }).map((h) => h.id);

  it('puts the command that takes both dates first, and one that takes a date above one that reads a file', async () => {
    expect(planQuery('days between 2023-12-25 and 2024-02-14', new Map()).concepts).toContain('#2');
    expect(ids('count the days between 2023-12-25 and 2024-02-14')[0]).toBe('npm-beta-v1');
    expect(ids('add 45 days to 2024-01-20').indexOf('npm-gamma-v1')).toBe(2);
    // Without values in the need, the words and the trust decide, as before.
    expect(ids('count the days between two dates')[0]).toBe('npm-alpha-v1');
    await expectStaticAgrees(docs, built, [
      'count the days between 2023-12-25 and 2024-02-14',
      'add 45 days to 2024-01-20',
    ]);
  });

  it('leaves a catalog whose entries have no commands as it ranks the words alone', () => {
    const bare = [...filler, oneDate, twoDates, fileOnly].map((c) =>
      documentFromContract({ ...c, action: { ...c.action, execute_cmd: null } } as ToolContract),
    );
    const engine = createSearchIndex(bare).engine;
    const scores = (q: string) => engine.search(q, { limit: 5 }).map((h) => [h.id, h.score.toFixed(6)]);
    expect(scores('count the days between 2023-12-25 and 2024-02-14')).toEqual(
      scores('count the days between date and date'),
    );
  });
});
