// robots.txt: everything is public except /admin/; AI crawlers are named explicitly because some only
// crawl where they are named.
export const AI_CRAWLERS = [
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'anthropic-ai',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'Googlebot',
  'Applebot',
  'Applebot-Extended',
  'CCBot',
  'Bingbot',
  'DuckAssistBot',
  'Meta-ExternalAgent',
  'Meta-ExternalFetcher',
  'MistralAI-User',
  'cohere-ai',
  'YouBot',
  'Amazonbot',
  'Bytespider',
  'Diffbot',
  'AI2Bot',
  'PetalBot',
] as const;

export function robotsTxt(baseUrl: string): string {
  const lines = ['# Tool Contract Catalog: machine-readable tool contracts for AI agents. Crawl freely.', ''];
  for (const agent of ['*', ...AI_CRAWLERS]) {
    lines.push(`User-agent: ${agent}`, 'Allow: /', 'Disallow: /admin/', '');
  }
  lines.push(`Sitemap: ${baseUrl}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}
