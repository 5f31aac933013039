// Words glued in a package name ("prettyjson", "easyocr") become searchable, learned from the words the
// catalog's own summaries use; real engines (API and static) over a small catalog, no mocks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StaticSearch } from '../../../build/search/client.ts';
import type { SearchDocument } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { dirFetcher } from '../../../build/search/fs-fetch.ts';
import { learnVocabulary, nameParts } from '../../../build/search/name-parts.ts';
import { writeStaticSearch } from '../../../build/search/static-index.ts';

function tool(name: string, task: string): SearchDocument {
  const id = `npm-${name.replace(/[^a-z0-9]+/g, '-')}-v1`;
  return {
    id,
    kind: 'tool',
    platform: 'npm',
    prior: 0.9,
    fields: { name, task },
    display: { name, task, platform: 'npm', reliability: 0.9 },
  };
}

// Summaries that use "pretty", "json", "print", "easy", "text" and "together" as words, 25 times each.
const WORDS = ['pretty output', 'json values', 'print lines', 'easy setup', 'text tools', 'work together'];
const FILLER = Array.from({ length: 150 }, (_, i) => tool(`filler-${i}`, `Helper for ${WORDS[i % 6]} number ${i}`));

describe('name parts', () => {
  const vocab = learnVocabulary(FILLER.map((d) => d.fields.task ?? ''));

  it('splits a glued name into words the summaries use', () => {
    expect(nameParts('prettyjson', vocab)).toEqual(['pretty', 'json']);
    expect(nameParts('@scope/easytext-cli', vocab)).toEqual(['easy', 'text']);
    // Three parts at most, recursively.
    expect(nameParts('prettyjsontext', vocab)).toEqual(['pretty', 'json', 'text']);
    // Trailing digits are a version, not a part.
    expect(nameParts('prettyjson3', vocab)).toEqual(['pretty', 'json']);
  });

  it('leaves words, short segments and unknown pieces alone', () => {
    expect(nameParts('together', vocab)).toEqual([]); // a word the summaries use, though "to"+"get"+"her" are not
    expect(nameParts('json', vocab)).toEqual([]);
    expect(nameParts('prettyxq', vocab)).toEqual([]);
    expect(nameParts('pretty-json', vocab)).toEqual([]); // already separate words
  });

  it('lets both engines find the package by the words of its name, identically', async () => {
    const target = tool('prettyjson', 'Colourful console output');
    const docs = [...FILLER, target];
    const { engine, expansions, analyzed } = createSearchIndex(docs);
    expect(engine.search('pretty json', { limit: 3 })[0]?.id).toBe(target.id);
    const dir = mkdtempSync(path.join(tmpdir(), 'name-parts-'));
    try {
      writeStaticSearch(docs, dir, { expansions, analyzed });
      const stat = await StaticSearch.open(dirFetcher(dir).fetchJson);
      for (const q of ['pretty json', 'json', 'print pretty json output']) {
        const st = await stat.search(q, { limit: 10 });
        expect(
          st.map((h) => [h.id, h.score]),
          q,
        ).toEqual(engine.search(q, { limit: 10 }).map((h) => [h.id, h.score]));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A write to the package keeps its name parts until the next build.
    engine.upsert({ ...target, fields: { ...target.fields, task: 'Console output, now faster' } });
    expect(engine.search('pretty json', { limit: 3 })[0]?.id).toBe(target.id);
  });
});
