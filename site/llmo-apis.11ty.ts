// `/llmo-apis`: the plain index of every served web-API manifest, by category, for agents and crawlers.
// Like `/`: no styles, no scripts, real links.
import type { SiteData } from '../build/pipeline/site-data.ts';
import { esc } from './escape.ts';
import { layout } from './layout.ts';

export const data = { permalink: '/llmo-apis/index.html' };

export function render(d: { site: SiteData }): string {
  const { site } = d;
  const { apis } = site;
  const { groups } = apis;
  const toc = groups.map((g) => `<a href="#${esc(g.id)}">${esc(g.id)}</a> (${g.entries.length})`).join(', ');
  const sections = groups
    .map(
      (g) => `<section>
<h2 id="${esc(g.id)}">${esc(g.id)} (${g.entries.length} APIs)</h2>
<ul>
${g.entries.map((e) => `<li><a href="${esc(e.manifestHref)}">${esc(e.serviceName)}</a>: ${esc(e.title)}. base_url <code>${esc(e.baseUrl)}</code>, auth ${esc(e.auth)}, ${e.intents} ${e.intents === 1 ? 'intent' : 'intents'}</li>`).join('\n')}
</ul>
</section>`,
    )
    .join('\n');
  const body = `<header>
<h1>${esc(site.name)}: web-API manifests</h1>
<p>${apis.total} compiled web-API manifests. Each link is the manifest (service, base_url, auth, intents) as JSON.
Search by intent: <a href="/api/v1/services/search?q=send+email">/api/v1/services/search?q=</a>. For people: <a href="/mai-api">/mai-api</a>. Tools: <a href="/">index</a>, <a href="/agent.json">agent.json</a>.</p>
<p>Definitions from the <a href="${esc(apis.source.url)}">${esc(apis.source.name)}</a> (${esc(apis.source.licence)} collection; each definition under its provider's terms). Not affiliated with the API providers.</p>
${toc ? `<nav aria-label="Categories"><p>Categories: ${toc}</p></nav>` : ''}
</header>
<main>
${sections}
</main>`;
  return layout({
    title: `${site.name}: web-API manifests for AI agents`,
    description: `Index of ${apis.total} compiled web-API manifests (base_url, auth, intents) by category, each as JSON.`,
    canonical: apis.llmoCanonical,
    body,
  });
}
