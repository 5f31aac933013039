// Past 50,000 URLs /sitemap.xml becomes a sitemap index over child sitemaps of at most 50,000 URLs each.
import { convert } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import { SITEMAP_URL_LIMIT, sitemapFiles } from '../../build/discovery/sitemap.ts';

const urlsOf = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);

describe('sitemap', () => {
  it('is one urlset up to 50,000 URLs', () => {
    const urls = Array.from({ length: SITEMAP_URL_LIMIT }, (_, i) => `https://c.example/tools/t${i}-v1/`);
    const files = sitemapFiles(urls, 'https://c.example', '2026-11-21T00:00:00Z');
    expect(files.map((f) => f.path)).toEqual(['sitemap.xml']);
    expect(files[0]?.content).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(urlsOf(files[0]?.content ?? '')).toEqual(urls);
  });

  it('splits 100,001 URLs into an index and three children holding every URL once', () => {
    const urls = Array.from({ length: 100_001 }, (_, i) => `https://c.example/tools/t${i}-v1/`);
    const files = sitemapFiles(urls, 'https://c.example', '2026-11-21T00:00:00Z');
    expect(files.map((f) => f.path)).toEqual([
      'sitemap.xml',
      'sitemaps/sitemap-1.xml',
      'sitemaps/sitemap-2.xml',
      'sitemaps/sitemap-3.xml',
    ]);
    const index = files[0]?.content ?? '';
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(urlsOf(index)).toEqual([1, 2, 3].map((n) => `https://c.example/sitemaps/sitemap-${n}.xml`));
    const children = files.slice(1).map((f) => urlsOf(f.content));
    expect(children.map((c) => c.length)).toEqual([50_000, 50_000, 1]);
    expect(children.flat()).toEqual(urls);
    for (const f of files) expect(() => convert(f.content, { format: 'object' })).not.toThrow();
  });

  it('escapes URLs for XML', () => {
    const [file] = sitemapFiles(['https://c.example/?a=1&b=<2>'], 'https://c.example', '2026-11-21T00:00:00Z');
    expect(file?.content).toContain('<loc>https://c.example/?a=1&amp;b=&lt;2&gt;</loc>');
  });
});
