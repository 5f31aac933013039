// The static search page in headless Chromium, on loopback: per query, in a fresh browser context (empty
// cache), the gzip bytes fetched after typing and the time until results show. Used by bench:search on
// the index it has just written (the "first query" targets: ≤ 500 KB, ≤ 1 s).
import { cpSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { median } from './stats.ts';
import { launchChromium } from './chromium.ts';

const SEARCH_PAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../site/search/index.html');

export interface BrowserFigures {
  queries: number;
  medianKb: number;
  maxKb: number;
  medianMs: number;
  maxMs: number;
}

/** Serves `staticDir` (manifest, shards, search.js) under /search/ with the page. */
function serveSearchFolder(staticDir: string): Promise<http.Server> {
  cpSync(SEARCH_PAGE, path.join(staticDir, 'index.html'));
  const server = http.createServer((req, res) => {
    const rel =
      decodeURIComponent((req.url ?? '/').split('?')[0] as string)
        .replace(/^\/search\//, '')
        .replace(/^\/$/, '') || 'index.html';
    try {
      const body = readFileSync(path.join(staticDir, path.normalize(rel).replace(/^(\.\.[/\\])+/, '')));
      res.writeHead(200, {
        'content-type': rel.endsWith('.html')
          ? 'text/html'
          : rel.endsWith('.js')
            ? 'text/javascript'
            : 'application/json',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function benchStaticSearchInBrowser(staticDir: string, queries: string[]): Promise<BrowserFigures> {
  const server = await serveSearchFolder(staticDir);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search/`;
  const browser = await launchChromium();
  const kbs: number[] = [];
  const times: number[] = [];
  try {
    for (const q of queries) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(base);
      await page.waitForLoadState('networkidle');
      let bytes = 0;
      page.on('response', async (r) => {
        bytes += gzipSync(await r.body().catch(() => Buffer.alloc(0))).length;
      });
      const t = performance.now();
      await page.fill('#q', q);
      await page.waitForFunction(
        () => /result/.test(document.getElementById('search-status')?.textContent ?? ''),
        undefined,
        { timeout: 10_000 },
      );
      times.push(performance.now() - t);
      await page.waitForLoadState('networkidle');
      kbs.push(bytes / 1024);
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  return {
    queries: queries.length,
    medianKb: median(kbs),
    maxKb: Math.max(...kbs),
    medianMs: median(times),
    maxMs: Math.max(...times),
  };
}
