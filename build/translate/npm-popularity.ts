// trust.popularity for npm packages: last month's downloads from the registry's downloads API
// (api.npmjs.org/downloads/point/last-month/<name>), turned into a percentile by the same measure
// the benchmark corpus uses: the share of the 60,000 most-downloaded npm packages (corpus, November
// 2026) downloaded less, interpolated on a log scale. Below the corpus's least-downloaded package: 0.
// A failure to read the figure never fails a translation: the popularity stays unknown.
import { fetchUpstreamJson, type UpstreamConfig } from './upstream-fetch.ts';

/** [monthly downloads, percentile] at fixed percentiles of the corpus's npm packages. */
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

export function npmPercentile(monthlyDownloads: number): number {
  if (!(monthlyDownloads >= NPM_QUANTILES[0]![0])) return 0;
  for (let i = 1; i < NPM_QUANTILES.length; i++) {
    const [hi, pHi] = NPM_QUANTILES[i]!;
    if (monthlyDownloads > hi) continue;
    const [lo, pLo] = NPM_QUANTILES[i - 1]!;
    const t = (Math.log(monthlyDownloads) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
    return Math.round((pLo + t * (pHi - pLo)) * 10_000) / 10_000;
  }
  return 1;
}

export interface Popularity {
  value: number;
  source: string;
  measuredAt: string;
}

export async function npmPopularity(name: string, cfg: UpstreamConfig, now = new Date()): Promise<Popularity | null> {
  try {
    const path = name
      .split('/')
      .map((p) => encodeURIComponent(p).replace(/^%40/, '@'))
      .join('/');
    const url = `${cfg.npmDownloads}/downloads/point/last-month/${path}`;
    const doc = (await fetchUpstreamJson(url, cfg, 'npm downloads API')) as { downloads?: unknown };
    if (typeof doc.downloads !== 'number' || !Number.isFinite(doc.downloads) || doc.downloads < 0) return null;
    return {
      value: npmPercentile(doc.downloads),
      source: `npm downloads API: ${doc.downloads} downloads last month, percentile among the 60,000 most downloaded`,
      measuredAt: now.toISOString(),
    };
  } catch {
    return null;
  }
}
