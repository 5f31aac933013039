// trust.popularity for npm packages: last month's downloads from the registry's downloads API
// (api.npmjs.org/downloads/point/last-month/<name>), turned into a percentile by the same measure
// the benchmark corpus uses: the share of the 60,000 most-downloaded npm packages (corpus, November
// 2026) downloaded less, interpolated on a log scale. Below the corpus's least-downloaded package: 0.
// A failure to read the figure never fails a translation: the popularity stays unknown.
import { npmPercentile } from './download-percentile.ts';
import { fetchUpstreamJson, type UpstreamConfig } from './upstream-fetch.ts';

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
