// sitemap.xml with xmlbuilder2; past 50,000 URLs (the protocol's limit per file) /sitemap.xml becomes a
// sitemap index pointing at numbered child sitemaps.
import { create } from 'xmlbuilder2';

export const SITEMAP_URL_LIMIT = 50_000;
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface OutputFile {
  /** Path relative to the output folder, forward slashes. */
  path: string;
  content: string;
}

// No per-URL lastmod: the build date would claim every page changed on every build, and crawlers learn
// to ignore a lastmod that is always new. The index carries the build date for its children.
function urlset(urls: string[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS, 'urlset');
  for (const loc of urls) root.ele('url').ele('loc').txt(loc);
  return root.end({ prettyPrint: false });
}

export function sitemapFiles(
  urls: string[],
  baseUrl: string,
  generatedAt: string,
  limit = SITEMAP_URL_LIMIT,
): OutputFile[] {
  const lastmod = generatedAt.slice(0, 10);
  if (urls.length <= limit) return [{ path: 'sitemap.xml', content: urlset(urls) }];
  const files: OutputFile[] = [];
  const index = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS, 'sitemapindex');
  for (let i = 0; i * limit < urls.length; i++) {
    const path = `sitemaps/sitemap-${i + 1}.xml`;
    files.push({ path, content: urlset(urls.slice(i * limit, (i + 1) * limit)) });
    index.ele('sitemap').ele('loc').txt(`${baseUrl}/${path}`).up().ele('lastmod').txt(lastmod);
  }
  files.unshift({ path: 'sitemap.xml', content: index.end({ prettyPrint: false }) });
  return files;
}
