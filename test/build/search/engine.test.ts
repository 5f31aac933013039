// The API engine: incremental writes are visible at once, empty queries list by reliability,
// filters work, and the ranking combines relevance with reliability the documented way.
import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../../../build/search/documents.ts';
import { SearchEngine } from '../../../build/search/engine.ts';
import { createSearchIndex } from '../../../build/search/index.ts';

function tool(id: string, name: string, task: string, prior: number, platform = 'npm'): SearchDocument {
  return {
    id,
    kind: 'tool',
    platform,
    prior,
    fields: { name, task },
    display: { name, task, platform, reliability: prior },
  };
}

// A small catalog with enough unrelated documents for IDF to mean something.
const FILLER = Array.from({ length: 300 }, (_, i) =>
  tool(
    `npm-filler-${i}-v1`,
    `filler-${i}`,
    [
      'Utility for strings',
      'React component for buttons',
      'HTTP client helper',
      'Date formatting utility',
      'CLI argument helper',
    ][i % 5]!,
    0.55 + (i % 40) / 100,
  ),
);

describe('SearchEngine', () => {
  it('makes an upsert searchable at once and a remove invisible at once', () => {
    const engine = SearchEngine.build(FILLER);
    expect(engine.search('quantum teleporter').map((h) => h.id)).toEqual([]);
    engine.upsert(tool('npm-qt-v1', 'qt', 'Quantum teleporter for packets', 0.7));
    expect(engine.search('quantum teleporter')[0]?.id).toBe('npm-qt-v1');
    // Replace: the old text no longer matches, the new one does.
    engine.upsert(tool('npm-qt-v1', 'qt', 'Holographic projector', 0.7));
    expect(engine.search('quantum teleporter').map((h) => h.id)).not.toContain('npm-qt-v1');
    expect(engine.search('holographic projector')[0]?.id).toBe('npm-qt-v1');
    expect(engine.remove('npm-qt-v1')).toBe(true);
    expect(engine.search('holographic projector').map((h) => h.id)).not.toContain('npm-qt-v1');
    expect(engine.remove('npm-qt-v1')).toBe(false);
    expect(engine.size).toBe(FILLER.length);
  });

  it('keeps answers identical across compaction (many writes)', () => {
    const engine = SearchEngine.build(FILLER);
    const fresh = SearchEngine.build(FILLER);
    // Rewrite every document several times: forces delta growth, tombstones and compaction.
    for (let round = 0; round < 40; round++) for (const d of FILLER) engine.upsert(d);
    for (const q of ['strings utility', 'react buttons', 'http client', '']) {
      expect(engine.search(q, { limit: 20 })).toEqual(fresh.search(q, { limit: 20 }));
    }
    expect(engine.stats().docs).toBe(FILLER.length);
  });

  it('answers the empty query with the most reliable documents first', () => {
    const engine = SearchEngine.build(FILLER);
    const hits = engine.search('', { limit: 25 });
    expect(hits).toHaveLength(25);
    for (let i = 1; i < hits.length; i++) {
      const a = hits[i - 1]!;
      const b = hits[i]!;
      expect(a.score > b.score || (a.score === b.score && a.id < b.id)).toBe(true);
    }
    expect(hits[0]!.score).toBe(Math.max(...FILLER.map((d) => d.prior)));
    // A query with no searchable word behaves like the empty query.
    expect(engine.search('the +-:~^*', { limit: 5 })).toEqual(engine.search('', { limit: 5 }));
  });

  it('ranks a strong match with a good score above a weak match with a high score', () => {
    const strong = tool(
      'npm-argon-hasher-v1',
      'argon-hasher',
      'Hash passwords securely with Argon2 password hashing',
      0.8,
    );
    const weak = tool('npm-misc-kit-v1', 'misc-kit', 'Grab bag of helpers: strings, arrays, a password field', 0.97);
    const engine = SearchEngine.build([...FILLER, strong, weak]);
    const ids = engine.search('hash passwords').map((h) => h.id);
    expect(ids.indexOf(strong.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(strong.id)).toBeLessThan(ids.indexOf(weak.id));
    // And between equally good matches, reliability decides.
    const a = tool('npm-yaml-a-v1', 'yaml-a', 'YAML parser', 0.6);
    const b = tool('npm-yaml-b-v1', 'yaml-b', 'YAML parser', 0.9);
    const e2 = SearchEngine.build([...FILLER, a, b]);
    expect(
      e2
        .search('yaml parser')
        .slice(0, 2)
        .map((h) => h.id),
    ).toEqual([b.id, a.id]);
  });

  it('filters by platform, kind and predicate; prefers the platform a query names', () => {
    const py = tool('pypi-yamlish-v1', 'yamlish', 'YAML parser', 0.7, 'pypi');
    const js = tool('npm-yamlish-v1', 'yamlish', 'YAML parser', 0.7, 'npm');
    const engine = SearchEngine.build([...FILLER, py, js]);
    expect(engine.search('yaml parser', { platform: 'pypi' }).map((h) => h.id)).toEqual([py.id]);
    expect(engine.search('yaml parser in python')[0]?.id).toBe(py.id);
    expect(engine.search('yaml parser for node')[0]?.id).toBe(js.id);
    expect(engine.search('yaml parser', { filter: (id) => id !== js.id }).map((h) => h.id)).toEqual([py.id]);
    expect(engine.search('yaml parser', { kind: 'api' })).toEqual([]);
    expect(engine.search('yaml parser', { limit: 0 })).toEqual([]);
  });

  it('indexes API manifests in a second instance', async () => {
    const { documentFromApiManifest } = await import('../../../build/search/documents.ts');
    const { engine } = createSearchIndex([
      documentFromApiManifest({
        id: 'weather',
        name: 'Weather API',
        description: 'Forecasts and current conditions',
        category: 'weather',
        intents: [{ id: 'get_forecast', summary: 'Get a forecast for a city', returns: 'json' }],
        reliability: 0.9,
      }),
      documentFromApiManifest({
        id: 'fx',
        name: 'FX Rates',
        description: 'Currency exchange rates',
        category: 'finance',
        reliability: 0.8,
      }),
    ]);
    expect(engine.search('city forecast', { kind: 'api' })[0]?.id).toBe('weather');
    expect(engine.search('exchange rates')[0]?.id).toBe('fx');
  });

  it('never throws on awkward queries', () => {
    const engine = SearchEngine.build(FILLER);
    for (const q of [
      '',
      'a',
      '+',
      '-',
      ':',
      '~',
      '^',
      '*',
      'foo:bar~2^3 +x -y *',
      'x'.repeat(1000),
      '画像',
      'привет',
      '\uD800',
      'constructor',
      '__proto__',
    ]) {
      expect(() => engine.search(q)).not.toThrow();
    }
  });
});
