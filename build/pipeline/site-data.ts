// Everything the Eleventy templates show, prepared in code so templates stay thin.
import type { ApiPagesData } from './api-site-data.ts';
import { type McpPageData, mcpPageData } from './mcp-page-data.ts';
import type { Platform, ToolContract } from '../model/contract.ts';
import { PLATFORMS } from '../model/contract.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../discovery/agent-document.ts';
import { STATIC_TOOLS_DIR } from '../discovery/static-json.ts';
import { permitsInstructions } from '../model/license.ts';
import { SECTIONS, sectionOf } from '../model/category.ts';

/** Index pages hold at most this many entries; past that the index splits into /page/N/. */
export const INDEX_PAGE_SIZE = 2000;

export interface IndexEntry {
  href: string;
  name: string;
  task: string;
  platform: Platform;
  reliability: number;
}
/** The tools of one platform within a section. */
export interface IndexGroup {
  platform: Platform;
  /** This platform's tools in the whole section (on every page). */
  total: number;
  entries: IndexEntry[];
}
/** A section of the index: MCP servers, or one category (build/model/category.ts), by platform inside. */
export interface IndexSection {
  id: string;
  label: string;
  /** The section's tools on every page. */
  total: number;
  groups: IndexGroup[];
}
export interface IndexPage {
  number: number;
  path: string;
  sections: IndexSection[];
}
/** One line of the table of contents every index page starts with: where a section begins. */
export interface IndexTocItem {
  id: string;
  label: string;
  total: number;
  href: string;
}
export interface ToolPage {
  aid: string;
  contract: ToolContract;
  title: string;
  description: string;
  canonical: string;
  apiUrl: string;
  staticJsonPath: string;
  instructionsUrl: string | null;
  jsonLd: Record<string, unknown>;
  /** MCP servers: the tools the last handshake listed, their flags, and the newest tool-list change. */
  mcp: McpPageData | null;
}
export interface SiteData {
  name: string;
  description: string;
  baseUrl: string;
  toolsCount: number;
  indexPages: IndexPage[];
  indexToc: IndexTocItem[];
  /**
   * The tool pages to render: every tool in a full build, the changed and new ones in an incremental one.
   * Empty here: renderSite makes each batch's pages from `rendered` as it goes (build/pipeline/site.ts), so
   * 100,000 pages' data never sit in memory at once.
   */
  toolPages: ToolPage[];
  /** The tools whose own page this build writes. */
  rendered: readonly ToolContract[];
  /** The web-API pages (/llmo-apis, /mai-api). */
  apis: ApiPagesData;
}

export const indexPagePath = (n: number) => (n === 1 ? '/' : `/page/${n}/`);

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

export function indexPages(tools: ToolContract[]): IndexPage[] {
  const sectionRank = new Map(SECTIONS.map((c, i) => [c.id, i]));
  const platformRank = new Map(PLATFORMS.map((p, i) => [p, i]));
  const items = tools.map((t) => ({ t, section: sectionOf(t) }));
  items.sort(
    (a, b) =>
      (sectionRank.get(a.section.id) ?? 99) - (sectionRank.get(b.section.id) ?? 99) ||
      (platformRank.get(a.t.identity.platform) ?? 9) - (platformRank.get(b.t.identity.platform) ?? 9) ||
      a.t.identity.name.localeCompare(b.t.identity.name, 'en') ||
      (a.t.identity.aid < b.t.identity.aid ? -1 : 1),
  );
  const sectionTotals = new Map<string, number>();
  const groupTotals = new Map<string, number>();
  for (const { t, section } of items) {
    sectionTotals.set(section.id, (sectionTotals.get(section.id) ?? 0) + 1);
    const key = `${section.id}/${t.identity.platform}`;
    groupTotals.set(key, (groupTotals.get(key) ?? 0) + 1);
  }
  const pages: IndexPage[] = [];
  for (let start = 0, n = 1; start < Math.max(items.length, 1); start += INDEX_PAGE_SIZE, n++) {
    const sections: IndexSection[] = [];
    for (const { t, section } of items.slice(start, start + INDEX_PAGE_SIZE)) {
      let s = sections.at(-1);
      if (!s || s.id !== section.id) {
        s = { id: section.id, label: section.label, total: sectionTotals.get(section.id) ?? 0, groups: [] };
        sections.push(s);
      }
      let g = s.groups.at(-1);
      if (!g || g.platform !== t.identity.platform) {
        g = {
          platform: t.identity.platform,
          total: groupTotals.get(`${section.id}/${t.identity.platform}`) ?? 0,
          entries: [],
        };
        s.groups.push(g);
      }
      g.entries.push({
        href: `/tools/${t.identity.aid}/`,
        name: t.identity.name,
        task: t.identity.task ?? '',
        platform: t.identity.platform,
        reliability: t.trust.reliability_score,
      });
    }
    pages.push({ number: n, path: indexPagePath(n), sections });
  }
  return pages;
}

/** Each section once, linked on the page where it starts. */
export function indexToc(pages: IndexPage[]): IndexTocItem[] {
  const toc: IndexTocItem[] = [];
  const seen = new Set<string>();
  for (const p of pages)
    for (const s of p.sections) {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      toc.push({ id: s.id, label: s.label, total: s.total, href: `${p.path}#${s.id}` });
    }
  return toc;
}

export function toolPage(c: ToolContract, baseUrl: string): ToolPage {
  const { aid, name, task, version, license, platform } = c.identity;
  const canonical = `${baseUrl}/tools/${aid}/`;
  const what = task ?? `${name} from ${platform}`;
  return {
    aid,
    contract: c,
    title: `${name} (${platform}): ${clip(what, 70)} | ${SERVICE_NAME}`,
    description: clip(
      `${name}: ${what}. Machine-readable contract (${aid}) with schemas and reliability ${c.trust.reliability_score}.`,
      160,
    ),
    canonical,
    apiUrl: `${baseUrl}/api/v1/tools/${aid}`,
    staticJsonPath: `/${STATIC_TOOLS_DIR}/${aid}.json`,
    instructionsUrl: permitsInstructions(license) ? `${baseUrl}/api/v1/tools/${aid}/instructions` : null,
    mcp: mcpPageData(c),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name,
      identifier: aid,
      description: what,
      url: canonical,
      applicationCategory: 'DeveloperApplication',
      ...(version ? { softwareVersion: version } : {}),
      ...(license
        ? { license: /^[A-Za-z0-9.+-]+$/.test(license) ? `https://spdx.org/licenses/${license}` : license }
        : {}),
      ...(c.identity.tags?.length ? { keywords: c.identity.tags.join(', ') } : {}),
      subjectOf: {
        '@type': 'Dataset',
        name: `Contract ${aid}`,
        encodingFormat: 'application/json',
        contentUrl: `${baseUrl}/${STATIC_TOOLS_DIR}/${aid}.json`,
      },
    },
  };
}

/**
 * `tools`: every tool (the index pages list them all); `rendered`: the tools whose own page is written
 * (all of them unless an incremental build links the others from the previous build).
 */
export function siteData(
  tools: ToolContract[],
  baseUrl: string,
  apis: ApiPagesData,
  rendered: readonly ToolContract[] = tools,
): SiteData {
  const pages = indexPages(tools);
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    baseUrl,
    toolsCount: tools.length,
    indexPages: pages,
    indexToc: indexToc(pages),
    toolPages: [],
    rendered,
    apis,
  };
}
