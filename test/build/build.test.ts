// `npm run build` output for a small catalog: pages, discovery files, static JSON, escaping, splitting.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { convert } from 'xmlbuilder2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { AI_CRAWLERS } from '../../build/discovery/robots.ts';
import { schemaFiles } from '../../build/model/json-schemas.ts';
import { partialContract } from '../../build/model/views.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';
const EVIL = '<script>alert(1)</script> ]]> & "q" [x](javascript:alert(2)) \u2028';

describe('build of a small catalog', () => {
  let cat: TempCatalog;
  const read = (p: string) => fsp.readFile(path.join(cat.distDir, p), 'utf8');
  const tools = [
    sampleContract('npm-alpha-v1', { trust: { reliability_score: 0.95 } }),
    sampleContract('pypi-beta-v1', { identity: { platform: 'pypi', license: 'GPL-3.0-only', name: 'beta' } }),
    sampleContract('github-evil-v1', {
      identity: { platform: 'github', name: `evil ${EVIL}`, task: EVIL, tags: ['<b>&</b>'] },
    }),
    // Never listed (views.ts isListable), though the most reliable: reachable by aid only.
    sampleContract('npm-hidden-v1', { record: { verified: false }, trust: { reliability_score: 0.99 } }),
    sampleContract('npm-dead-v1', { trust: { status: 'dead', reliability_score: 0.98 } }),
  ];
  const unlisted = ['npm-hidden-v1', 'npm-dead-v1'];

  beforeAll(async () => {
    cat = await tempCatalog(tools);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
  });
  afterAll(() => cat.cleanup());

  it('writes / as plain hierarchical HTML: sections by category, platforms inside, real links, no styles or scripts', async () => {
    const html = await read('index.html');
    expect(html).not.toMatch(/<script|<style|style=|<link rel="stylesheet"/i);
    expect(html).toContain('<li><a href="/#other">Other tools</a> (5)</li>');
    expect(html).toMatch(
      /<h2 id="other">Other tools \(5 tools\)<\/h2>\n<h3 id="other-github">github \(1\)<\/h3>[\s\S]*<h3 id="other-pypi">[\s\S]*<h3 id="other-npm">npm \(3\)<\/h3>/,
    );
    expect(html).toContain(
      '<a href="/tools/npm-alpha-v1/">alpha</a>: Does alpha things <small>(npm, reliability 0.95)</small>',
    );
    expect(html).toContain(`<link rel="canonical" href="${BASE}/">`);
  });

  it('writes one page per tool with a unique title, description, canonical link and JSON-LD, never the action block', async () => {
    const page = await read('tools/npm-alpha-v1/index.html');
    expect(page).toContain('<title>alpha (npm): Does alpha things | Tool Contract Catalog</title>');
    expect(page).toContain(`<link rel="canonical" href="${BASE}/tools/npm-alpha-v1/">`);
    expect(page).toMatch(/<meta name="description" content="alpha: Does alpha things\./);
    expect(page).not.toContain('npm install alpha');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)?.[1] ?? 'null');
    expect(ld).toMatchObject({
      '@type': 'SoftwareApplication',
      identifier: 'npm-alpha-v1',
      url: `${BASE}/tools/npm-alpha-v1/`,
    });
    const titles = await Promise.all(
      tools.map((t) => read(`tools/${t.identity.aid}/index.html`).then((h) => /<title>(.*)<\/title>/.exec(h)?.[1])),
    );
    expect(new Set(titles).size).toBe(tools.length);
  });

  it('escapes contract text for HTML, JSON in HTML, Markdown and XML', async () => {
    const page = await read('tools/github-evil-v1/index.html');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;q&quot;');
    const ldText = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)?.[1] ?? '';
    expect(ldText).not.toMatch(/<\/script|<!--|\u2028/i);
    expect(JSON.parse(ldText).description).toBe(EVIL);
    expect(await read('index.html')).not.toContain('<script>alert');
    const llms = await read('llms/other.txt');
    const line = llms.split('\n').find((l) => l.includes('/tools/github-evil-v1/')) ?? '';
    expect(line).not.toContain('<script>');
    expect(line).not.toMatch(/[^\\]\]\(javascript:/);
    expect(line).toContain('\\[x\\](javascript:alert(2))');
    expect(line).toContain('&lt;script&gt;');
    const json = JSON.parse(await read('static/v1/tools/github-evil-v1.json'));
    expect(json.identity.task).toBe(EVIL);
  });

  it('writes the same agent document at the three discovery paths with counts and links', async () => {
    const docs = await Promise.all(['agent.json', '.well-known/agent.json', '.well-known/mcp.json'].map(read));
    expect(new Set(docs).size).toBe(1);
    const doc = JSON.parse(docs[0] as string);
    expect(doc).toMatchObject({ name: 'Tool Contract Catalog', tools_count: 5, apis_count: expect.any(Number) });
    expect(doc.links).toMatchObject({
      llms_txt: `${BASE}/llms.txt`,
      sitemap: `${BASE}/sitemap.xml`,
      openapi: `${BASE}/openapi.json`,
    });
    expect(doc.endpoints.length).toBeGreaterThan(5);
    for (const e of doc.endpoints)
      expect(e).toMatchObject({ method: expect.stringMatching(/^(GET|POST)$/), path: expect.stringMatching(/^\//) });
  });

  it('writes robots.txt that names AI crawlers, disallows /admin/ and ends with the sitemap', async () => {
    const robots = await read('robots.txt');
    for (const bot of [
      'GPTBot',
      'OAI-SearchBot',
      'ChatGPT-User',
      'ClaudeBot',
      'Claude-User',
      'Claude-SearchBot',
      'PerplexityBot',
      'Google-Extended',
      'Applebot-Extended',
      'CCBot',
      ...AI_CRAWLERS,
    ]) {
      expect(robots).toContain(`User-agent: ${bot}\nAllow: /\nDisallow: /admin/\n`);
    }
    expect(robots.trimEnd().split('\n').at(-1)).toBe(`Sitemap: ${BASE}/sitemap.xml`);
  });

  it('writes llms.txt in the llmstxt.org format, linking one file per category with one line per listed contract (never unverified or dead ones)', async () => {
    const llms = await read('llms.txt');
    expect(llms).toMatch(/^# Tool Contract Catalog\n\n> .* 3 verified tool contracts, 0 of them MCP servers\.\n/);
    expect(llms).toContain(`\n## Tools by category\n\n- [Other tools](${BASE}/llms/other.txt): 3 tools, e.g. alpha, `);
    const other = await read('llms/other.txt');
    expect(other).toMatch(
      /\n## Tools from npm\n\n- \[alpha\]\(https:\/\/catalog\.example\/tools\/npm-alpha-v1\/\): Does alpha things \(reliability 0\.95\)\n/,
    );
    for (const aid of unlisted) expect(llms + other).not.toContain(aid);
    const toolLines = `${llms}\n${other}`.split('\n').filter((l) => l.includes(`${BASE}/tools/`));
    expect(toolLines).toHaveLength(3);
  });

  it('publishes the JSON Schemas generated from the types under /schema/ (the catalog folder has none here)', async () => {
    for (const f of schemaFiles()) expect(await read(f.path)).toBe(f.content);
  });

  it('writes a sitemap listing every tool page and index page', async () => {
    const xml = await read('sitemap.xml');
    const obj = convert(xml, { format: 'object' }) as { urlset: { url: { loc: string }[] } };
    const locs = obj.urlset.url.map((u) => u.loc);
    expect(locs).toContain(`${BASE}/`);
    for (const t of tools) expect(locs).toContain(`${BASE}/tools/${t.identity.aid}/`);
  });

  it('writes static JSON: each partial contract and the default listings', async () => {
    for (const t of tools) {
      expect(JSON.parse(await read(`static/v1/tools/${t.identity.aid}.json`))).toEqual(
        JSON.parse(JSON.stringify(partialContract(t, BASE))),
      );
    }
    const listing = JSON.parse(await read('static/v1/tools.json'));
    expect(listing.results[0].identity.aid).toBe('npm-alpha-v1');
    expect(listing.results[0]).not.toHaveProperty('action');
    // The listings match GET /api/v1/tools and /trending: unverified and dead tools are not listed.
    const trending = JSON.parse(await read('static/v1/trending.json'));
    for (const doc of [listing, trending]) {
      const aids = doc.results.map((r: { identity: { aid: string } }) => r.identity.aid);
      expect(aids).toEqual(['npm-alpha-v1', 'github-evil-v1', 'pypi-beta-v1']); // reliability, then aid
      expect(doc.count).toBe(3);
    }
    expect(await read('_redirects')).toContain('/api/*  https://catalog.example/api/:splat  200');
    expect(await read('_headers')).toContain('Content-Type: text/plain; charset=utf-8');
  });
});

describe('build of a catalog past one index page', () => {
  it('splits / into numbered, self-canonical pages that together link every tool', async () => {
    const many = Array.from({ length: 4500 }, (_, i) => sampleContract(`npm-t${String(i).padStart(4, '0')}-v1`));
    const cat = await tempCatalog(many);
    try {
      await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
      const pages = ['index.html', 'page/2/index.html', 'page/3/index.html'];
      let links = 0;
      for (const [i, p] of pages.entries()) {
        const html = await fsp.readFile(path.join(cat.distDir, p), 'utf8');
        const self = i === 0 ? `${BASE}/` : `${BASE}/page/${i + 1}/`;
        expect(html).toContain(`<link rel="canonical" href="${self}">`);
        expect(html).toContain(i === 2 ? '<strong>3</strong>' : '<a href="/page/3/">3</a>');
        links += (html.match(/<a href="\/tools\//g) ?? []).length;
      }
      expect(links).toBe(4500);
      await expect(fsp.access(path.join(cat.distDir, 'page/4/index.html'))).rejects.toThrow();
      const sitemap = await fsp.readFile(path.join(cat.distDir, 'sitemap.xml'), 'utf8');
      expect(sitemap).toContain(`<loc>${BASE}/page/3/</loc>`);
    } finally {
      await cat.cleanup();
    }
  }, 180_000); // a 4,500-tool build; generous for a loaded machine
});
