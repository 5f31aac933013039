// `/tools/<aid>/`: one page per contract with every public block (never `action`) and JSON-LD.
import type { McpPageData, SiteData, ToolPage } from '../build/pipeline/site-data.ts';
import { verificationText } from '../build/model/views.ts';
import { esc, jsonForHtml } from './escape.ts';
import { layout } from './layout.ts';

export const data = {
  pagination: { data: 'site.toolPages', size: 1, alias: 'tool' },
  permalink: (d: { tool: ToolPage }) => `/tools/${d.tool.aid}/`,
};

const row = (label: string, value: string) => `<dt>${esc(label)}</dt><dd>${value}</dd>`;
const pre = (value: unknown) => `<pre>${esc(JSON.stringify(value, null, 2))}</pre>`;
const names = (list: string[]) => (list.length ? list.map((n) => `<code>${esc(n)}</code>`).join(', ') : 'none');

/** The server's tools as its last handshake listed them, each flag, and the newest change with before/after. */
function mcpSection(m: McpPageData): string {
  const read = m.toolsReadAt
    ? `Listed by a handshake in the verifier's sandbox on ${esc(m.toolsReadAt.slice(0, 10))}${m.server ? ` (server ${esc(m.server)})` : ''}.`
    : 'No handshake has listed its tools yet.';
  const review = m.inReview
    ? '<p class="warning"><strong>Under review:</strong> its tool list changed or a tool description was flagged since an operator last looked.</p>'
    : '';
  const tools = m.tools
    .map(
      (t) =>
        `<li id="mcp-tool-${esc(t.name)}"><code>${esc(t.name)}</code>${t.title ? ` (${esc(t.title)})` : ''}: ${esc(t.description)}${
          t.flags.length ? `<ul class="flags">${t.flags.map((f) => `<li>Flagged: ${esc(f)}</li>`).join('')}</ul>` : ''
        }</li>`,
    )
    .join('\n');
  const c = m.change;
  const change = c
    ? `<h3>Last tool-list change</h3>
<p>Detected ${esc(c.detectedAt)}; ${c.reviewedAt ? `reviewed ${esc(c.reviewedAt)}` : 'not reviewed yet'}. Added: ${names(c.added)}. Removed: ${names(c.removed)}.</p>
${c.changed.map((x) => `<h4>Changed: <code>${esc(x.name)}</code></h4>\n<p>Before:</p><pre>${esc(x.before)}</pre>\n<p>After:</p><pre>${esc(x.after)}</pre>`).join('\n')}`
    : '';
  return `<h2>MCP server tools</h2>
<p>Transport: ${esc(m.transport)}${m.url ? ` at <code>${esc(m.url)}</code>` : ''}. ${read}</p>
${review}<ul class="mcp-tools">
${tools}
</ul>
${change}`;
}

export function render(d: { tool: ToolPage; site: SiteData }): string {
  const { tool: t, site } = d;
  const c = t.contract;
  const body = `<nav aria-label="Breadcrumb"><p><a href="/">${esc(site.name)}</a> › <a href="/#${esc(c.identity.platform)}">${esc(c.identity.platform)}</a></p></nav>
<main>
<h1>${esc(c.identity.name)}</h1>
<p>${esc(c.identity.task ?? '')}</p>
<h2>Identity</h2>
<dl>
${row('aid', `<code>${esc(c.identity.aid)}</code>`)}
${row('version', esc(c.identity.version ?? 'unknown'))}
${row('platform', esc(c.identity.platform))}
${row('license', esc(c.identity.license ?? 'unknown'))}
${row('tags', esc((c.identity.tags ?? []).join(', ') || 'none'))}
</dl>
<h2>Logic</h2>
<h3>Input schema</h3>
${pre(c.logic.input_schema)}
<h3>Output schema</h3>
${pre(c.logic.output_schema)}
${t.mcp ? mcpSection(t.mcp) : ''}
<h2>Trust</h2>
<dl>
${row('reliability score', esc(c.trust.reliability_score))}
${row('latency', esc(c.trust.latency_ms == null ? 'unknown' : `${c.trust.latency_ms} ms`))}
${row('status', esc(c.trust.status))}
${row('verification', esc(verificationText(c)))}
</dl>
<h2>Install and run</h2>
<p>The action block (install and execute commands) is given to agents that report usage: <code>POST ${esc(t.apiUrl)}</code> with a JSON body such as <code>{"execution_feedback": 200, "trend_keyword": "your use case"}</code>.</p>
<h2>Links</h2>
<ul>
<li><a href="${esc(t.apiUrl)}">Contract (JSON API, live telemetry)</a></li>
<li><a href="${esc(t.staticJsonPath)}">Contract (static JSON)</a></li>
${t.instructionsUrl ? `<li><a href="${esc(t.instructionsUrl)}">Agent instructions (text)</a></li>` : ''}
</ul>
</main>`;
  const head = `<link rel="alternate" type="application/json" href="${esc(t.staticJsonPath)}">
<script type="application/ld+json">${jsonForHtml(t.jsonLd)}</script>
`;
  return layout({ title: t.title, description: t.description, canonical: t.canonical, body, head });
}
