import { describe, expect, it } from 'vitest';
import { documentFromContract, termWeights } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { coverageOf } from '../../../build/search/plan.ts';
import { isCodeOnly, postingValue, RANK } from '../../../build/search/rank.ts';
import { expectStaticAgrees, lintFillers } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const text = { input_schema: { type: 'string' }, output_schema: { type: 'string' } } as const;
const filler = lintFillers(20, { logic: text });
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
    await expectStaticAgrees(docs, built, ['check json', 'json', 'check a version']);
  });
});

describe('install commands', () => {
  it('index the packages an install names, not the release line it pins', () => {
    const pinned = sampleContract('npm-pinned-v1', {
      action: { install_cmd: 'npm install zzqtool@5 @zz/helper@0.34', execute_cmd: 'npx zzqtool {file}' },
    });
    const [install] = documentFromContract(pinned).fields.commands ?? [];
    expect(install).toBe('npm install zzqtool @zz/helper');
    const pip = sampleContract('pypi-pinned-v1', { action: { install_cmd: 'pip install zzq==2.* other~=1.4' } });
    expect(documentFromContract(pip).fields.commands?.[0]).toBe('pip install zzq other');
  });
});
