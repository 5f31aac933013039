// Everything the Eleventy templates show, prepared in code so templates stay thin.
import type { ApiPagesData } from './api-site-data.ts';
import type { Platform, ToolContract } from '../model/contract.ts';
import { PLATFORMS } from '../model/contract.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../discovery/agent-document.ts';
import { STATIC_TOOLS_DIR } from '../discovery/static-json.ts';
import { permitsInstructions } from '../model/license.ts';
import { latestToolChange } from '../model/views.ts';

/** Index pages hold at most this many entries; past that the index splits into /page/N/. */
export const INDEX_PAGE_SIZE = 2000;

export interface IndexEntry {
  href: string;
  name: string;
  task: string;
  platform: Platform;
  reliability: number;
}
export interface IndexGroup {
  platform: Platform;
  total: number;
  entries: IndexEntry[];
}
export interface IndexPage {
  number: number;
  path: string;
  groups: IndexGroup[];
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
export interface McpPageData {
  transport: string;
  url: string | null;
  /** `name version` the server gave in the handshake, or null before any. */
  server: string | null;
  toolsReadAt: string | null;
  inReview: boolean;
  tools: { name: string; title: string | null; description: string; flags: string[] }[];
  change: {
    detectedAt: string;
    reviewedAt: string | null;
    added: string[];
    removed: string[];
    changed: { name: string; before: string; after: string }[];
  } | null;
}
export interface SiteData {
  name: string;
  description: string;
  baseUrl: string;
  toolsCount: number;
  indexPages: IndexPage[];
  /** The tool pages to render: every tool in a full build, the changed and new ones in an incremental one. */
  toolPages: ToolPage[];
  /** The web-API pages (/llmo-apis, /mai-api). */
  apis: ApiPagesData;
}

export const indexPagePath = (n: number) => (n === 1 ? '/' : `/page/${n}/`);

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

export function indexPages(tools: ToolContract[]): IndexPage[] {
  const order = new Map(PLATFORMS.map((p, i) => [p, i]));
  const sorted = [...tools].sort(
    (a, b) =>
      (order.get(a.identity.platform) ?? 9) - (order.get(b.identity.platform) ?? 9) ||
      a.identity.name.localeCompare(b.identity.name, 'en') ||
      (a.identity.aid < b.identity.aid ? -1 : 1),
  );
  const totals = new Map<Platform, number>();
  for (const t of sorted) totals.set(t.identity.platform, (totals.get(t.identity.platform) ?? 0) + 1);
  const pages: IndexPage[] = [];
  for (let start = 0, n = 1; start < Math.max(sorted.length, 1); start += INDEX_PAGE_SIZE, n++) {
    const groups: IndexGroup[] = [];
    for (const t of sorted.slice(start, start + INDEX_PAGE_SIZE)) {
      let g = groups.at(-1);
      if (!g || g.platform !== t.identity.platform) {
        g = { platform: t.identity.platform, total: totals.get(t.identity.platform) ?? 0, entries: [] };
        groups.push(g);
      }
      g.entries.push({
        href: `/tools/${t.identity.aid}/`,
        name: t.identity.name,
        task: t.identity.task ?? '',
        platform: t.identity.platform,
        reliability: t.trust.reliability_score,
      });
    }
    pages.push({ number: n, path: indexPagePath(n), groups });
  }
  return pages;
}

/** The MCP part of a tool page (null for a tool that is not an MCP server). */
export function mcpPageData(c: ToolContract): McpPageData | null {
  const mcp = c.logic.mcp;
  if (c.identity.kind !== 'mcp_server' || !mcp) return null;
  const change = latestToolChange(c);
  return {
    transport: mcp.transport,
    url: mcp.url ?? null,
    server: mcp.server_info
      ? `${mcp.server_info.name}${mcp.server_info.version ? ` ${mcp.server_info.version}` : ''}`
      : null,
    toolsReadAt: mcp.tools_read_at,
    inReview: c.trust.status === 'review',
    tools: mcp.tools.map((t) => ({
      name: t.name,
      title: t.title ?? null,
      description: t.description ?? '',
      flags: t.flags ?? [],
    })),
    change: change
      ? {
          detectedAt: change.detected_at,
          reviewedAt: change.reviewed_at ?? null,
          added: change.added,
          removed: change.removed,
          changed: change.changed.map((x) => ({
            name: x.name,
            before: x.before.description ?? '',
            after: x.after.description ?? '',
          })),
        }
      : null,
  };
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
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    baseUrl,
    toolsCount: tools.length,
    indexPages: indexPages(tools),
    toolPages: rendered.map((t) => toolPage(t, baseUrl)),
    apis,
  };
}
