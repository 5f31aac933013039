// Topicality (build/search/topicality.ts): a word entries use only in task sentences ("declared") weighs less
// as a query concept than one they name themselves with ("dependencies"), in both engines.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StaticSearch } from '../../../build/search/client.ts';
import { analyzeDocument, documentFromContract } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { dirFetcher } from '../../../build/search/fs-fetch.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { writeStaticSearch } from '../../../build/search/static-index.ts';
import { stem } from '../../../build/search/tokenize.ts';
import { learnTopicality, TOPICALITY } from '../../../build/search/topicality.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const prose = Array.from({ length: 12 }, (_, i) =>
  sampleContract(`npm-reader${i}-v1`, {
    identity: { task: `Reads the settings declared in config format ${i}`, tags: ['config', `format${i}`] },
  }),
);
const lister = sampleContract('npm-deps-lister-v1', {
  identity: { task: 'List the dependencies of a project manifest', tags: ['dependencies', 'manifest'] },
});
const schema = sampleContract('npm-schema-kit-v1', {
  identity: { task: 'Schemas declared once, checked everywhere', tags: ['schema'] },
});
const docs = [...prose, lister, schema].map(documentFromContract);

describe('topicality', () => {
  const topicality = learnTopicality(docs.map(analyzeDocument));

  it('scales down a word entries use only in their task sentences, and leaves tag words at 1', () => {
    const declared = topicality.get(stem('declared'));
    expect(declared).toBeDefined();
    expect(declared!).toBeGreaterThanOrEqual(TOPICALITY.floor);
    expect(declared!).toBeLessThan(0.8);
    expect(topicality.has(stem('dependencies'))).toBe(false);
    expect(topicality.has(stem('config'))).toBe(false);
  });

  it('the query plan carries the scale into the concept weights and the typed terms', () => {
    const plan = planQuery('dependencies declared', new Map(), topicality);
    const at = plan.concepts.indexOf(stem('declared'));
    expect(plan.conceptScale[at]).toBe(topicality.get(stem('declared')));
    expect(plan.terms.find((t) => t.term === stem('declared'))?.qw).toBe(topicality.get(stem('declared')));
    expect(plan.conceptScale[plan.concepts.indexOf(stem('dependencies'))]).toBe(1);
  });

  it('the API engine and the static files use the same scales: same order and scores', async () => {
    const built = createSearchIndex(docs);
    expect(built.engine.topicality.get(stem('declared'))).toBe(topicality.get(stem('declared')));
    const dir = mkdtempSync(path.join(tmpdir(), 'topicality-'));
    try {
      writeStaticSearch(docs, dir, { expansions: built.expansions, analyzed: built.analyzed });
      const written = readdirSync(path.join(dir, 'terms')).map(
        (f) => JSON.parse(readFileSync(path.join(dir, 'terms', f), 'utf8')) as { topic?: Record<string, number> },
      );
      expect(written.find((s) => s.topic?.[stem('declared')] !== undefined)?.topic?.[stem('declared')]).toBe(
        topicality.get(stem('declared')),
      );
      const client = await StaticSearch.open(dirFetcher(dir).fetchJson);
      for (const q of ['list the dependencies declared', 'settings declared', 'schemas declared in a manifest']) {
        const api = built.engine.search(q, { limit: 10 });
        const stat = await client.search(q, { limit: 10 });
        expect(stat.map((h) => [h.id, h.score])).toEqual(api.map((h) => [h.id, h.score]));
      }
      expect(built.engine.search('list the dependencies declared', { limit: 1 })[0]?.id).toBe('npm-deps-lister-v1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
