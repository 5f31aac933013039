// /llms.txt in the llmstxt.org format (H1, blockquote summary, H2 sections of `- [name](url): note`), kept
// readable at thousands of tools: it lists the MCP servers and links one file per category
// (/llms/<category>.txt, the same format, one H2 per platform, one line per tool). Categories come from
// build/model/category.ts; an unverified or dead contract is never listed.
import { CATEGORIES, categoryOf, MCP_SECTION, OTHER_CATEGORY } from '../model/category.ts';
import type { ToolContract } from '../model/contract.ts';
import { PLATFORMS } from '../model/contract.ts';
import { trustVerification } from '../model/views.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from './agent-document.ts';
import { escapeMarkdown, escapeMarkdownUrl } from './markdown.ts';
import type { OutputFile } from './sitemap.ts';

const link = (name: string, url: string, note: string) =>
  `- [${escapeMarkdown(name)}](${escapeMarkdownUrl(url)})${note ? `: ${escapeMarkdown(note)}` : ''}`;

/** Where a category's list lives, relative to dist/. */
export const llmsSectionPath = (id: string) => `llms/${id}.txt`;

const byName = (a: ToolContract, b: ToolContract) => (a.identity.name < b.identity.name ? -1 : 1);

function toolLine(t: ToolContract, baseUrl: string, extra = ''): string {
  const v = trustVerification(t);
  const verified = v ? `, verification ${v.status}${v.level ? ` (${v.level})` : ''}` : '';
  const note = `${t.identity.task ?? t.identity.name} (${extra}reliability ${t.trust.reliability_score}${verified})`;
  return link(t.identity.name, `${baseUrl}/tools/${t.identity.aid}/`, note);
}

/** One H2 per platform, one line per tool, by name. */
function byPlatform(tools: ToolContract[], baseUrl: string): string[] {
  const out: string[] = [];
  for (const platform of PLATFORMS) {
    const group = tools.filter((t) => t.identity.platform === platform).sort(byName);
    if (group.length === 0) continue;
    out.push(`## Tools from ${platform}`, '');
    for (const t of group) out.push(toolLine(t, baseUrl));
    out.push('');
  }
  return out;
}

/** `listed`: the listable tools only (views.ts isListable: verified and not dead), in reliability order. */
export function llmsFiles(listed: ToolContract[], baseUrl: string): OutputFile[] {
  const servers = listed.filter((t) => t.identity.kind === 'mcp_server').sort(byName);
  const tools = listed.filter((t) => t.identity.kind !== 'mcp_server');
  const byCategory = new Map<string, ToolContract[]>();
  for (const t of tools) {
    const id = categoryOf(t).id;
    const list = byCategory.get(id);
    if (list) list.push(t);
    else byCategory.set(id, [t]);
  }
  const out = [
    `# ${SERVICE_NAME}`,
    '',
    `> ${SERVICE_DESCRIPTION} ${listed.length} verified tool contracts, ${servers.length} of them MCP servers.`,
    '',
    'Each tool page below has the contract as JSON-LD; the JSON API gives it with live telemetry. Fetch the action block (install and execute commands) with a POST carrying a tax_payload.',
    'Tools are listed by category in the files linked under "Tools by category" (by platform inside each); MCP servers are listed here.',
    '',
    '## API',
    '',
    link('Search tools', `${baseUrl}/api/v1/tools?q=send+email`, 'keyword or intent search, at most 10 results'),
    link(
      'Search tools for what you hold',
      `${baseUrl}/api/v1/tools?q=convert+markdown+to+html&inputs=input_file&formats=md&offline=true`,
      'inputs (input_file, text_file, text, url, json, output_dir) and formats (extensions) keep to tools whose command takes them',
    ),
    link('Trending tools', `${baseUrl}/api/v1/tools/trending`, 'top tools by reliability'),
    link('Unified search', `${baseUrl}/api/v1/search?q=vector+database`, 'tools and web APIs together'),
    link(
      'MCP subregistry',
      `${baseUrl}/v0.1/servers`,
      'the MCP servers in the official MCP registry read API (v0.1), with verification evidence and tool lists',
    ),
    link('OpenAPI', `${baseUrl}/openapi.json`, 'the whole interface, OpenAPI 3.1'),
    link('Agent document', `${baseUrl}/agent.json`, 'endpoints and counts'),
    '',
  ];
  if (servers.length) {
    out.push(`## ${MCP_SECTION.label}`, '');
    for (const t of servers) {
      const n = t.logic.mcp?.tools.length ?? 0;
      out.push(toolLine(t, baseUrl, `${t.identity.platform}, ${n} ${n === 1 ? 'tool' : 'tools'}, `));
    }
    out.push('');
  }
  const files: OutputFile[] = [];
  const categoryLinks: string[] = [];
  for (const category of [...CATEGORIES, OTHER_CATEGORY]) {
    const list = byCategory.get(category.id);
    if (!list?.length) continue;
    const path = llmsSectionPath(category.id);
    const examples = list
      .slice(0, 3)
      .map((t) => t.identity.name)
      .join(', ');
    categoryLinks.push(link(category.label, `${baseUrl}/${path}`, `${list.length} tools, e.g. ${examples}`));
    files.push({
      path,
      content: [
        `# ${SERVICE_NAME}: ${category.label}`,
        '',
        `> ${list.length} verified tool contracts in "${category.label}", by platform. All categories: ${baseUrl}/llms.txt`,
        '',
        ...byPlatform(list, baseUrl),
      ].join('\n'),
    });
  }
  if (categoryLinks.length) out.push('## Tools by category', '', ...categoryLinks, '');
  out.push('## Optional', '', link('Sitemap', `${baseUrl}/sitemap.xml`, 'every page'), '');
  return [{ path: 'llms.txt', content: out.join('\n') }, ...files];
}
