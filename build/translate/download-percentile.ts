// trust.popularity is a download percentile within the package's platform, on one scale for every source
// (the registries' APIs at import, the offline package lists of `npm run popularity`, the benchmark corpus):
// the corpus of November 2026 (build/bench/data) is the reference population.

/** [monthly downloads, percentile] at fixed percentiles of the corpus's 60,000 npm packages. */
const NPM_QUANTILES: readonly (readonly [number, number])[] = [
  [22_908, 0],
  [31_284, 0.1],
  [44_120, 0.2],
  [64_656, 0.3],
  [97_874, 0.4],
  [156_841, 0.5],
  [272_443, 0.6],
  [557_605, 0.7],
  [1_519_211, 0.8],
  [7_122_815, 0.9],
  [26_044_430, 0.95],
  [189_211_792, 0.99],
  [654_322_037, 0.999],
  [2_399_072_936, 1],
];

/** npm: the share of the corpus's npm packages downloaded less, interpolated on a log scale; 0 below its last. */
export function npmPercentile(monthlyDownloads: number): number {
  if (!(monthlyDownloads >= NPM_QUANTILES[0]![0])) return 0;
  for (let i = 1; i < NPM_QUANTILES.length; i++) {
    const [hi, pHi] = NPM_QUANTILES[i]!;
    if (monthlyDownloads > hi) continue;
    const [lo, pLo] = NPM_QUANTILES[i - 1]!;
    const t = (Math.log(monthlyDownloads) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
    return round4(pLo + t * (pHi - pLo));
  }
  return 1;
}

/**
 * The corpus's PyPI population: 40,000 packages, 14,640 of them with a rank among the 15,000 most downloaded
 * (ranks 1–15,000 with gaps), the other 25,360 below that list. `popularityPercentiles` (build/bench/corpus.ts)
 * places a ranked package at its position among the ranked ones and the rest at their shared mid-rank.
 */
export const PYPI_CORPUS = { packages: 40_000, ranked: 14_640, rankedOf: 15_000 } as const;

/**
 * PyPI: the corpus percentile of a download rank among the 15,000 most downloaded (1 = most), its position in
 * the corpus estimated as rank × 14,640 / 15,000; `null` (listed, but below the 15,000) gets the tail's
 * shared percentile, as in the corpus.
 */
export function pypiRankPercentile(rank: number | null): number {
  const { packages, ranked, rankedOf } = PYPI_CORPUS;
  if (rank === null || !(rank >= 1) || rank > rankedOf) {
    const tailMidRank = (ranked + (packages - 1)) / 2 + 1;
    return round4(1 - (tailMidRank - 0.5) / packages);
  }
  const position = Math.max(1, (rank * ranked) / rankedOf);
  return round4(1 - (position - 0.5) / packages);
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
