// A 1,200-contract catalog from the benchmark corpus (every tenth made an MCP server) built for real: the HTML
// index, llms.txt and the sitemap stay sectioned and valid. llms.txt follows the llmstxt.org structure (one H1,
// a blockquote, then H2 sections of link lines), names every MCP server and links one file per category;
// together the files list every listed contract exactly once; the sitemap is well-formed XML naming every page.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { convert } from 'xmlbuilder2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusContracts } from '../../build/bench/corpus.ts';
import { CATEGORIES, OTHER_CATEGORY, sectionOf } from '../../build/model/category.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { build } from '../../build/pipeline/build.ts';
import { type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const BASE = 'https://catalog.example';
const N = 1200;
const HASH = `sha256:${'a'.repeat(64)}`;

function asMcpServer(c: ToolContract): ToolContract {
  return {
    ...c,
    identity: { ...c.identity, kind: 'mcp_server' },
    logic: {
      ...c.logic,
      mcp: {
        transport: 'stdio',
        tools_read_at: '2026-11-24T00:00:00Z',
        tools: [{ name: 'do_it', description: 'Does it.', hash: HASH }],
      },
    },
  };
}

/** `- [name](url)` or `- [name](url): note`, the llms.txt link-list line. */
const LINK_LINE = /^- \[[^\]\n]*(?:\\\][^\]\n]*)*\]\((https?:\/\/[^)\s]+)\)(?:: .+)?$/;

/** The llmstxt.org structure: H1 first, a blockquote, free text, then H2 sections whose list lines are links. */
function checkLlmsStructure(text: string): string[] {
  const lines = text.split('\n');
  expect(lines[0]).toMatch(/^# \S/);
  expect(lines[1]).toBe('');
  expect(lines[2]).toMatch(/^> \S/);
  expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
  expect(lines.some((l) => /^#{3,} /.test(l))).toBe(false);
  const urls: string[] = [];
  let inSection = false;
  for (const l of lines) {
    if (l.startsWith('## ')) inSection = true;
    if (!inSection || !l.startsWith('- ')) continue;
    const m = LINK_LINE.exec(l);
    expect(m, l).not.toBeNull();
    urls.push((m as RegExpExecArray)[1] as string);
  }
  return urls;
}

describe('discovery files of a 1,200-contract catalog', () => {
  let cat: TempCatalog;
  let contracts: ToolContract[];
  const read = (p: string) => fsp.readFile(path.join(cat.distDir, p), 'utf8');

  beforeAll(async () => {
    contracts = (await corpusContracts(N)).map((c, i) => (i % 10 === 0 ? asMcpServer(c) : c));
    cat = await tempCatalog(contracts);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: BASE });
  }, 300_000); // a full build of 1,200 tools on a loaded machine
  afterAll(() => cat?.cleanup());

  it('llms.txt lists the MCP servers and links the category files; together they name every contract once', async () => {
    const llms = await read('llms.txt');
    const top = checkLlmsStructure(llms);
    expect(llms).toMatch(/\n## MCP servers\n/);
    expect(llms).toMatch(/\n## Tools by category\n/);
    // Readable as one document: the index holds the servers and one line per category, not every tool.
    expect(llms.split('\n').length).toBeLessThan(N / 4);
    const categoryFiles = top.filter((u) => u.startsWith(`${BASE}/llms/`));
    expect(categoryFiles.length).toBeGreaterThanOrEqual(5);
    const toolUrls = top.filter((u) => u.startsWith(`${BASE}/tools/`));
    expect(toolUrls).toHaveLength(N / 10);
    for (const f of categoryFiles) {
      const text = await read(f.slice(BASE.length + 1));
      const urls = checkLlmsStructure(text);
      expect(text).toMatch(/\n## Tools from (npm|pypi)\n/);
      toolUrls.push(...urls.filter((u) => u.startsWith(`${BASE}/tools/`)));
    }
    expect(new Set(toolUrls).size).toBe(toolUrls.length);
    expect(new Set(toolUrls)).toEqual(new Set(contracts.map((c) => `${BASE}/tools/${c.identity.aid}/`)));
  });

  it('the index starts with a table of sections (MCP servers first) and links every tool once, under its section', async () => {
    const html = await read('index.html');
    const toc = /<nav aria-label="Sections">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    const tocIds = [...toc.matchAll(/href="\/#([a-z-]+)"/g)].map((m) => m[1]);
    const order = ['mcp-servers', ...CATEGORIES.map((c) => c.id), OTHER_CATEGORY.id];
    expect(tocIds[0]).toBe('mcp-servers');
    expect(tocIds).toEqual(order.filter((id) => tocIds.includes(id)));
    const sectionIds = [...html.matchAll(/<h2 id="([a-z-]+)">/g)].map((m) => m[1]).filter((id) => id !== 'sections');
    expect(sectionIds).toEqual(tocIds);
    expect(html).toMatch(
      new RegExp(`<h2 id="mcp-servers">MCP servers \\(${N / 10} tools\\)</h2>\\n<h3 id="mcp-servers-`),
    );
    // Each tool under the section the rule gives it.
    const sections = html.split(/<section aria-labelledby="/).slice(1);
    const seen = new Set<string>();
    const byAid = new Map(contracts.map((c) => [c.identity.aid, c]));
    for (const s of sections) {
      const id = s.slice(0, s.indexOf('"'));
      for (const m of s.matchAll(/<a href="\/tools\/([^/]+)\/">/g)) {
        const aid = m[1] as string;
        expect(seen.has(aid)).toBe(false);
        seen.add(aid);
        expect(sectionOf(byAid.get(aid) as ToolContract).id, aid).toBe(id);
      }
    }
    expect(seen.size).toBe(N);
  });

  it('the sitemap is well-formed XML in the sitemap namespace and names every tool and index page once', async () => {
    const xml = await read('sitemap.xml');
    expect(XMLValidator.validate(xml)).toBe(true);
    const obj = convert(xml, { format: 'object' }) as { urlset: { '@xmlns': string; url: { loc: string }[] } };
    expect(obj.urlset['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = obj.urlset.url.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    for (const c of contracts) expect(locs).toContain(`${BASE}/tools/${c.identity.aid}/`);
    expect(locs).toContain(`${BASE}/`);
    // One file: 1,200 pages are far below the protocol's 50,000 URLs and 50 MB per sitemap.
    await expect(fsp.access(path.join(cat.distDir, 'sitemaps'))).rejects.toThrow();
  });
});
