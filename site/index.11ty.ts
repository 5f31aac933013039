// `/` and `/page/N/`: the plain hierarchical index of every contract: sections (MCP servers, then categories),
// platforms inside each, and a table of contents of the sections on every page.
import type { IndexPage, SiteData } from '../build/pipeline/site-data.ts';
import { esc } from './escape.ts';
import { layout } from './layout.ts';

export const data = {
  pagination: { data: 'site.indexPages', size: 1, alias: 'indexPage' },
  permalink: (d: { indexPage: IndexPage }) => d.indexPage.path,
};

export function render(d: { indexPage: IndexPage; site: SiteData }): string {
  const { indexPage: p, site } = d;
  const nav =
    site.indexPages.length > 1
      ? `<nav aria-label="Pages"><p>Pages: ${site.indexPages.map((q) => (q.number === p.number ? `<strong>${q.number}</strong>` : `<a href="${esc(q.path)}">${q.number}</a>`)).join(' ')}</p></nav>`
      : '';
  // Sections (MCP servers, then categories) with a platform heading inside each: at a thousand tools and
  // more, a reader or crawler finds its need from the table of contents instead of one long list.
  const toc = `<nav aria-label="Sections"><h2 id="sections">Sections</h2>
<ul>
${site.indexToc.map((t) => `<li><a href="${esc(t.href)}">${esc(t.label)}</a> (${t.total})</li>`).join('\n')}
</ul>
</nav>`;
  const groups = p.sections
    .map(
      (s) => `<section aria-labelledby="${esc(s.id)}">
<h2 id="${esc(s.id)}">${esc(s.label)} (${s.total} tools)</h2>
${s.groups
  .map(
    (g) => `<h3 id="${esc(s.id)}-${esc(g.platform)}">${esc(g.platform)} (${g.total})</h3>
<ul>
${g.entries.map((e) => `<li><a href="${esc(e.href)}">${esc(e.name)}</a>: ${esc(e.task)} <small>(${esc(e.platform)}, reliability ${e.reliability})</small></li>`).join('\n')}
</ul>`,
  )
  .join('\n')}
</section>`,
    )
    .join('\n');
  const body = `<header>
<h1>${esc(site.name)}</h1>
<p>${esc(site.description)}</p>
<p>${site.toolsCount} tool contracts. For agents: <a href="/agent.json">agent.json</a>, <a href="/llms.txt">llms.txt</a>, <a href="/openapi.json">OpenAPI</a>, <a href="/sitemap.xml">sitemap</a>, <a href="/search/">search</a>, <a href="/llmo-apis">web-API manifests</a>. For people: <a href="/mai-api">web-API directory</a>.</p>
</header>
<main>
${toc}
${nav}
${groups}
${nav}
</main>`;
  const title =
    p.number === 1 ? `${site.name}: tool contracts for AI agents` : `${site.name}: tool contracts, page ${p.number}`;
  return layout({
    title,
    description: `${site.description} Page ${p.number} of ${site.indexPages.length}.`,
    canonical: `${site.baseUrl}${p.path}`,
    body,
  });
}
