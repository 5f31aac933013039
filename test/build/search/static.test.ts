// The static (CDN) search: sharded lunr files + the browser client logic, run in Node against the
// written files. It must return exactly the API engine's order and scores, and answer a first
// query within the byte budget.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lunr from 'lunr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusContracts } from '../../../build/bench/corpus.ts';
import { StaticSearch } from '../../../build/search/client.ts';
import { documentFromContract, type SearchDocument } from '../../../build/search/documents.ts';
import type { SearchEngine } from '../../../build/search/engine.ts';
import { learnExpansions, readExpansions } from '../../../build/search/expand.ts';
import { dirFetcher } from '../../../build/search/fs-fetch.ts';
import { createSearchIndex } from '../../../build/search/index.ts';
import { writeStaticSearch } from '../../../build/search/static-index.ts';

const N = 20_000;
const root = path.resolve(import.meta.dirname, '../../..');
const queriesOf = (file: string) =>
  (
    JSON.parse(readFileSync(path.join(root, 'test/fixtures/search', file), 'utf8')) as { queries: { query: string }[] }
  ).queries.map((q) => q.query);

let dir = '';
let docs: SearchDocument[] = [];
let engine: SearchEngine;
let built: ReturnType<typeof createSearchIndex>;

beforeAll(async () => {
  docs = (await corpusContracts(N)).map(documentFromContract);
  built = createSearchIndex(docs);
  engine = built.engine;
  dir = mkdtempSync(path.join(tmpdir(), 'static-search-'));
  writeStaticSearch(docs, dir, { expansions: built.expansions, analyzed: built.analyzed });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('static search', () => {
  it('writes real lunr indexes', () => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { shards: string[] };
    const i = manifest.shards.findLastIndex((first) => first <= 'yaml');
    const shard = JSON.parse(readFileSync(path.join(dir, `terms/${i}.json`), 'utf8')) as { lunr: object };
    const index = lunr.Index.load(shard.lunr);
    const hits = index.query((q) => q.term('yaml', { usePipeline: false }));
    expect(hits.length).toBeGreaterThan(5);
    expect(Number.isInteger(hits[0]!.score)).toBe(true);
  });

  it('returns the API engine order and scores, shard by shard', async () => {
    const sample = [
      ...queriesOf('dev-queries.json').slice(0, 40),
      ...queriesOf('heldout-queries.json').slice(0, 15),
      '',
      'sharp',
      'js-yaml',
      'python',
      'yaml parser in python',
      'constructor',
      '__proto__ toString',
      '画像',
      'a',
      '+-:~^*',
      'x'.repeat(1000),
    ];
    const s = await StaticSearch.open(dirFetcher(dir).fetchJson);
    for (const q of sample) {
      const api = engine.search(q, { limit: 10 });
      const st = await s.search(q, { limit: 10 });
      expect(
        st.map((h) => [h.id, h.score]),
        q,
      ).toEqual(api.map((h) => [h.id, h.score]));
    }
    const py = await s.search('yaml', { platform: 'pypi', limit: 5 });
    expect(py.map((h) => h.id)).toEqual(engine.search('yaml', { platform: 'pypi', limit: 5 }).map((h) => h.id));
  });

  it('fetches at most 500 KB (gzip) for a first query', async () => {
    let worst = 0;
    // The worst case is a long query of common words: twelve concepts, each with its expansions.
    const long = 'read write parse convert generate image text file data web server client stream json test python';
    for (const q of [
      'hash passwords',
      'read excel files',
      'send transactional email',
      'parse command line arguments',
      'resize images',
      'make http requests',
      long,
    ]) {
      const f = dirFetcher(dir);
      const s = await StaticSearch.open(f.fetchJson);
      const hits = await s.search(q);
      expect(hits.length).toBeGreaterThan(0);
      worst = Math.max(worst, f.stats.gzip);
    }
    expect(worst).toBeLessThan(500 * 1024);
  });

  it('ships the expansion table for the API engine', () => {
    expect(readExpansions(path.join(dir, 'expansions.json')).size).toBeGreaterThan(100);
  });

  it('learns the same expansion table whatever order the documents come in (API: reliability, static: id)', () => {
    expect(learnExpansions([...built.analyzed].reverse())).toEqual(built.expansions);
  });
});
