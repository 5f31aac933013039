// `/mai-api`: the landing page of the web-API manifests, for people. One <style> block and no script
// (the HTML policy allows inline styles, never scripts); the data comes from build/api-site-data.ts.
import type { ApiCategoryGroup } from '../build/pipeline/api-site-data.ts';
import type { SiteData } from '../build/pipeline/site-data.ts';
import { esc } from './escape.ts';
import { layout } from './layout.ts';

export const data = { permalink: '/mai-api/index.html' };

// Sections below the fold skip layout and paint until scrolled to: 2,600 rows stay quick to open.
const STYLE = `<style>
:root{color-scheme:light dark;--fg:#1c2024;--muted:#5b6470;--bg:#fff;--soft:#f4f6f8;--line:#e3e7eb;--accent:#0b62c4}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ec;--muted:#a2abb5;--bg:#14171a;--soft:#1d2125;--line:#2c3238;--accent:#6cb0ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-decoration:underline;text-underline-offset:.15em}a:hover{text-decoration-thickness:2px}
code{font:0.86em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.wrap{max-width:68rem;margin:0 auto;padding:0 1.25rem}
header{background:var(--soft);border-bottom:1px solid var(--line);padding:1.5rem 0 2rem}
.crumb{margin:0 0 1rem;font-size:.9rem}
h1{font-size:2.1rem;line-height:1.2;margin:0 0 .6rem;letter-spacing:-.01em}
.lead{font-size:1.12rem;max-width:46rem;margin:0;color:var(--muted)}
.stats{display:flex;flex-wrap:wrap;gap:.75rem 2.5rem;list-style:none;padding:0;margin:1.4rem 0 0}
.stats strong{display:block;font-size:1.5rem;color:var(--fg)}.stats li{color:var(--muted);font-size:.9rem}
.info{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1.5rem;margin:2rem 0}
.info h2{font-size:1.05rem;margin:0 0 .4rem}.info p{margin:0 0 .5rem;color:var(--muted);font-size:.95rem}
.toc{border-top:1px solid var(--line);border-bottom:1px solid var(--line);padding:1rem 0;margin-bottom:1rem}
.toc h2{font-size:1rem;margin:0 0 .6rem}
.toc ul{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:0;padding:0}
.toc a{text-decoration:none;display:inline-block;padding:.25rem .7rem;border:1px solid var(--line);border-radius:999px;font-size:.9rem;background:var(--bg)}
.toc span,.count{color:var(--muted);font-weight:400}
.cat{margin:2.2rem 0;content-visibility:auto;contain-intrinsic-size:auto 40rem}
.cat h2{font-size:1.35rem;margin:0 0 .6rem;display:flex;align-items:baseline;gap:.6rem}
.cat h2 a{font-size:.85rem;font-weight:400;margin-left:auto}
table{width:100%;border-collapse:collapse;font-size:.93rem}
th{text-align:left;font-weight:600;color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;border-bottom:2px solid var(--line);padding:.4rem .6rem}
td{border-bottom:1px solid var(--line);padding:.45rem .6rem;vertical-align:top}
tbody tr:hover{background:var(--soft)}
td.api code{color:var(--muted)}td.url{word-break:break-all;color:var(--muted)}td.num{text-align:right;font-variant-numeric:tabular-nums}
th.num{text-align:right}td.auth{white-space:nowrap}
footer{border-top:1px solid var(--line);margin-top:3rem;padding:1.5rem 0 2.5rem;color:var(--muted);font-size:.9rem}
@media (max-width:40rem){h1{font-size:1.6rem}td.url,th.url{display:none}}
</style>
`;

const n = (v: number) => v.toLocaleString('en-US');

function table(g: ApiCategoryGroup): string {
  const rows = g.entries.map(
    (e) =>
      `<tr><td class="api"><strong>${esc(e.title)}</strong><br><code>${esc(e.serviceName)}</code></td><td class="url">${esc(e.host)}</td><td class="auth">${esc(e.authLabel)}</td><td class="num">${e.intents}</td><td><a href="${esc(e.manifestHref)}">JSON</a></td></tr>`,
  );
  return `<section class="cat" id="${esc(g.id)}" aria-labelledby="h-${esc(g.id)}">
<h2 id="h-${esc(g.id)}">${esc(g.label)} <span class="count">${n(g.entries.length)}</span><a href="#top">Top ↑</a></h2>
<table><thead><tr><th>API</th><th class="url">Base URL</th><th>Auth</th><th class="num">Intents</th><th>Manifest</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
</section>`;
}

export function render(d: { site: SiteData }): string {
  const { site } = d;
  const { groups, total, source: src, tokens: t } = site.apis;
  const stats = [
    `<li><strong>${n(total)}</strong>APIs</li>`,
    `<li><strong>${groups.length}</strong>categories</li>`,
    ...(t
      ? [
          `<li><strong>${t.ratio}×</strong>fewer tokens than the definitions</li>`,
          `<li><strong>${n(t.medianManifest)}</strong>tokens in a typical manifest</li>`,
        ]
      : []),
  ].join('');
  const body = `<header id="top"><div class="wrap">
<p class="crumb"><a href="/">${esc(site.name)}</a> › Web-API manifests</p>
<h1>Web-API manifests</h1>
<p class="lead">Public web APIs, each compiled from its OpenAPI definition into a short manifest an AI agent can read at a glance: where the API lives, how it authenticates, and up to 20 things it can do.</p>
<ul class="stats">${stats}</ul>
</div></header>
<main class="wrap">
<div class="info">
<section><h2>Use them</h2>
<p>Search by intent with <code>GET /api/v1/services/search?q=send+email</code>, fetch one with <code>GET /api/v1/services/{service_name}/mai-api.json</code>, or use the MCP tools <code>search_apis</code> and <code>get_api_manifest</code> at <code>/mcp</code>.</p>
<p>Plain index for agents and crawlers: <a href="/llmo-apis">/llmo-apis</a>.</p></section>
<section><h2>Source and licence</h2>
<p>The definitions come from the <a href="${esc(src.url)}">${esc(src.name)}</a> (source: <a href="${esc(src.repository)}">${esc(src.repository.replace(/^https:\/\//, ''))}</a>). The directory's collection is released under <a href="${esc(src.licenceUrl)}">${esc(src.licence)}</a>; each API definition remains under its provider's own terms.</p>
<p>This catalog is not affiliated with, or endorsed by, the API providers listed here. Names are trademarks of their owners.</p></section>
</div>
<nav class="toc" aria-label="Categories"><h2>Categories</h2><ul>
${groups.map((g) => `<li><a href="#${esc(g.id)}">${esc(g.label)} <span>${n(g.entries.length)}</span></a></li>`).join('\n')}
</ul></nav>
${groups.map(table).join('\n')}
</main>
<footer><div class="wrap"><p>${esc(site.name)} · <a href="/">Tool contracts</a> · <a href="/llmo-apis">/llmo-apis</a> · <a href="/agent.json">agent.json</a> · <a href="/openapi.json">OpenAPI</a></p></div></footer>`;
  return layout({
    title: `Web-API manifests: ${n(total)} public APIs for AI agents | ${site.name}`,
    description: `${n(total)} public web APIs by category, each compiled from its OpenAPI definition into a compact manifest: base URL, auth and up to 20 intents.`,
    canonical: site.apis.landingCanonical,
    body,
    head: STYLE,
  });
}
