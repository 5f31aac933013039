// Coverage from program text (RANK.codeCover): a concept a tool matches only in its command or schema types (the
// JSON its command prints) covers less of the query than one its task names, in both engines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StaticSearch } from '../../../build/search/client.ts';
import { documentFromContract, termWeights } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { dirFetcher } from '../../../build/search/fs-fetch.ts';
import { coverageOf } from '../../../build/search/plan.ts';
import { isCodeOnly, postingValue, RANK } from '../../../build/search/rank.ts';
import { writeStaticSearch } from '../../../build/search/static-index.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const text = { input_schema: { type: 'string' }, output_schema: { type: 'string' } } as const;
const filler = Array.from({ length: 20 }, (_, i) =>
  sampleContract(`npm-other${i}-v1`, {
    identity: { task: `Lint source files of kind ${i}`, tags: ['lint'] },
    logic: text,
  }),
);
// Checks versions, and its command prints JSON: "json" is in its command and output type, not in what it is for.
const versionCheck = sampleContract('npm-range-check-v1', {
  identity: { task: 'Check a version against a range', tags: ['semver'] },
  logic: { input_schema: { type: 'string' }, output_schema: { type: 'json' } },
  action: { execute_cmd: 'node -e "console.log(JSON.stringify({json: true}))" {version} --json' },
  trust: { reliability_score: 0.97 },
});
const jsonCheck = sampleContract('npm-json-check-v1', {
  identity: { task: 'Check a JSON file for syntax errors', tags: ['json'] },
  logic: text,
  trust: { reliability_score: 0.75 },
});
const docs = [...filler, versionCheck, jsonCheck].map(documentFromContract);

describe('coverage from commands and types', () => {
  it('flags postings whose term is only in the command or types, and keeps their weight', () => {
    const built = createSearchIndex(docs);
    const analyzed = built.analyzed.find((a) => a.id === 'npm-range-check-v1')!;
    const weights = new Map(termWeights(analyzed, built.engine.avgLens));
    expect(isCodeOnly(weights.get('json')!)).toBe(true);
    expect(postingValue(weights.get('json')!)).toBeGreaterThan(0);
    expect(isCodeOnly(weights.get('check')!)).toBe(false);
    expect(coverageOf(0b01, 0, 0b10, [1, 1])).toBeCloseTo((1 + RANK.codeCover) / 2);
    expect(coverageOf(0b01, 0b10, 0b10, [1, 1])).toBeCloseTo((1 + RANK.expansionCover) / 2);
  });

  it('ranks the tool whose task names both words above a more reliable one with a word only in its command', async () => {
    const built = createSearchIndex(docs);
    expect(built.engine.search('check json', { limit: 2 }).map((h) => h.id)).toEqual([
      'npm-json-check-v1',
      'npm-range-check-v1',
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), 'code-cover-'));
    try {
      writeStaticSearch(docs, dir, { expansions: built.expansions, analyzed: built.analyzed });
      const client = await StaticSearch.open(dirFetcher(dir).fetchJson);
      for (const q of ['check json', 'json', 'check a version']) {
        const api = built.engine.search(q, { limit: 5 });
        const stat = await client.search(q, { limit: 5 });
        expect(stat.map((h) => [h.id, h.score])).toEqual(api.map((h) => [h.id, h.score]));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
