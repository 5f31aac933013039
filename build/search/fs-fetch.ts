// Serves static-search files from a directory to StaticSearch in Node (tests, eval, bench) and
// counts what a browser would download: files, raw bytes and gzip bytes (what a CDN sends).
//   const f = dirFetcher('dist/search'); const s = await StaticSearch.open(f.fetchJson); f.stats
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FetchStats {
  files: number;
  raw: number;
  gzip: number;
}

export function dirFetcher(dir: string): {
  fetchJson: (rel: string) => Promise<unknown>;
  stats: FetchStats;
  reset(): void;
} {
  const gz = new Map<string, number>();
  const stats: FetchStats = { files: 0, raw: 0, gzip: 0 };
  return {
    stats,
    reset() {
      stats.files = 0;
      stats.raw = 0;
      stats.gzip = 0;
    },
    async fetchJson(rel: string) {
      const file = path.join(dir, path.normalize(rel).replace(/^(\.\.(\/|\\|$))+/, ''));
      const buf = readFileSync(file);
      let g = gz.get(file);
      if (g === undefined) gz.set(file, (g = gzipSync(buf).length));
      stats.files++;
      stats.raw += buf.length;
      stats.gzip += g;
      return JSON.parse(buf.toString('utf8')) as unknown;
    },
  };
}
