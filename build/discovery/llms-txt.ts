// /llms.txt in the llmstxt.org format: H1, blockquote summary, H2 sections of `- [name](url): note`.
import type { ToolContract } from '../model/contract.ts';
import { PLATFORMS } from '../model/contract.ts';
import { trustVerification } from '../model/views.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from './agent-document.ts';
import { escapeMarkdown, escapeMarkdownUrl } from './markdown.ts';

const link = (name: string, url: string, note: string) =>
  `- [${escapeMarkdown(name)}](${escapeMarkdownUrl(url)})${note ? `: ${escapeMarkdown(note)}` : ''}`;

/** `listed`: the listable tools only (views.ts isListable: verified and not dead). */
export function llmsTxt(listed: ToolContract[], baseUrl: string): string {
  const out = [
    `# ${SERVICE_NAME}`,
    '',
    `> ${SERVICE_DESCRIPTION} ${listed.length} verified tool contracts.`,
    '',
    'Each tool page below has the contract as JSON-LD; the JSON API gives it with live telemetry. Fetch the action block (install and execute commands) with a POST carrying a tax_payload.',
    '',
    '## API',
    '',
    link('Search tools', `${baseUrl}/api/v1/tools?q=send+email`, 'keyword or intent search, at most 10 results'),
    link('Trending tools', `${baseUrl}/api/v1/tools/trending`, 'top tools by reliability'),
    link('Unified search', `${baseUrl}/api/v1/search?q=vector+database`, 'tools and web APIs together'),
    link('OpenAPI', `${baseUrl}/openapi.json`, 'the whole interface, OpenAPI 3.1'),
    link('Agent document', `${baseUrl}/agent.json`, 'endpoints and counts'),
    '',
  ];
  for (const platform of PLATFORMS) {
    const group = listed
      .filter((t) => t.identity.platform === platform)
      .sort((a, b) => (a.identity.name < b.identity.name ? -1 : 1));
    if (group.length === 0) continue;
    out.push(`## Tools from ${platform}`, '');
    for (const t of group) {
      const v = trustVerification(t);
      const verified = v ? `, verification ${v.status}${v.level ? ` (${v.level})` : ''}` : '';
      const note = `${t.identity.task ?? t.identity.name} (reliability ${t.trust.reliability_score}${verified})`;
      out.push(link(t.identity.name, `${baseUrl}/tools/${t.identity.aid}/`, note));
    }
    out.push('');
  }
  out.push('## Optional', '', link('Sitemap', `${baseUrl}/sitemap.xml`, 'every page'), '');
  return out.join('\n');
}
