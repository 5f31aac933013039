// The evaluation catalog: popularity is the download percentile within each platform, reliability
// comes in coarse bands that say nothing about popularity (read from the bundled corpus itself).
import { describe, expect, it } from 'vitest';
import {
  bandedReliability,
  corpusContracts,
  popularityPercentiles,
  RELIABILITY_BANDS,
} from '../../../build/bench/corpus.ts';

describe('corpus contracts', () => {
  it('ranks popularity within each platform, ties sharing their mid-rank, unknown ranks last', () => {
    const p = popularityPercentiles([
      { registry: 'npm', name: 'a', monthly_downloads: 900 },
      { registry: 'npm', name: 'b', monthly_downloads: 50 },
      { registry: 'npm', name: 'c', monthly_downloads: 50 },
      { registry: 'npm', name: 'd', monthly_downloads: 10 },
      { registry: 'pypi', name: 'x', download_rank: 2 },
      { registry: 'pypi', name: 'y', download_rank: 1 },
      { registry: 'pypi', name: 'z', download_rank: null },
      { registry: 'pypi', name: 'w', download_rank: null },
    ]);
    expect(p.slice(0, 4)).toEqual([0.875, 0.5, 0.5, 0.125]);
    expect(p[5]).toBeGreaterThan(p[4]!);
    expect(p[6]).toBe(p[7]);
    expect(p[6]).toBeLessThan(p[4]!);
  });

  it('fills trust.popularity with its source, and bands reliability independently of it', async () => {
    const contracts = await corpusContracts(20_000);
    for (const c of contracts.slice(0, 50)) {
      expect(c.trust.popularity).toBeGreaterThanOrEqual(0);
      expect(c.trust.popularity).toBeLessThanOrEqual(1);
      expect(c.record?.popularity_source).toMatch(/^corpus: /);
      expect(RELIABILITY_BANDS).toContain(c.trust.reliability_score);
    }
    // Mean reliability of the most and of the least popular half differ by no more than chance.
    const sorted = [...contracts].sort((a, b) => b.trust.popularity! - a.trust.popularity!);
    const mean = (xs: typeof contracts) => xs.reduce((s, c) => s + c.trust.reliability_score, 0) / xs.length;
    const half = sorted.length / 2;
    expect(Math.abs(mean(sorted.slice(0, half)) - mean(sorted.slice(half)))).toBeLessThan(0.005);
    // Every band is used, none by most packages.
    const counts = new Map<number, number>();
    for (const c of contracts) counts.set(c.trust.reliability_score, (counts.get(c.trust.reliability_score) ?? 0) + 1);
    expect(counts.size).toBe(RELIABILITY_BANDS.length);
    expect(Math.max(...counts.values())).toBeLessThan(contracts.length / 4);
    expect(bandedReliability('npm', 'left-pad')).toBe(bandedReliability('npm', 'left-pad'));
  });
});
