// Which source a URL names, and how a draft becomes a contract. Supported: a GitHub repository, a PyPI
// project, an npm package, a server in the MCP registry (mcp-registry.ts says which URLs), or a contract URL
// on an allowed peer instance. When the catalog already holds
// the same source (same source_url), the translation updates that contract instead of adding a twin.
import { AID_PATTERN, type McpServer, type Requires, type ToolContract, type Trust } from '../model/contract.ts';
import type { UpstreamConfig } from './upstream-fetch.ts';
import type { Draft, SourceRef } from './common.ts';
import { githubDraft } from './github.ts';
import { mcpRegistryDraft, mcpServerRef } from './mcp-registry.ts';
import { peerDraft } from './peer.ts';
import { NPM_NAME, npmDraft, PYPI_NAME, pypiDraft } from './registries.ts';

const GH_PART = /^[A-Za-z0-9_.-]{1,100}$/;
const AID = new RegExp(AID_PATTERN);
const host = (u: URL) => u.hostname.toLowerCase().replace(/^www\./, '');

/** The source a URL names, or null when it is not one we translate. */
export function sourceOf(raw: string, cfg: UpstreamConfig): SourceRef | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (u.username || u.password) return null;
  const parts = u.pathname
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return '';
      }
    });
  if (cfg.peerHosts.includes(u.host.toLowerCase()) || cfg.peerHosts.includes(u.hostname.toLowerCase())) {
    const i = parts.length - 4;
    if (i < 0 || parts.slice(i, i + 3).join('/') !== 'api/v1/tools' || !AID.test(parts[i + 3] ?? '')) return null;
    // Only https to peers, unless tests run them on loopback.
    if (u.protocol !== 'https:' && !cfg.allowPrivate) return null;
    const url = `${u.protocol}//${u.host}${u.pathname}`;
    return { kind: 'peer', sourceUrl: url, fetch: (c) => peerDraft(url, c) };
  }
  const mcp = mcpServerRef(u, parts, cfg);
  if (mcp) {
    const { name, version } = mcp;
    return { kind: 'mcp-registry', sourceUrl: mcp.url, fetch: (c) => mcpRegistryDraft(name, version, c) };
  }
  const h = host(u);
  if (h === 'github.com') {
    const [owner, repoRaw] = parts;
    const repo = repoRaw?.replace(/\.git$/, '');
    if (!owner || !repo || !GH_PART.test(owner) || !GH_PART.test(repo)) return null;
    return {
      kind: 'github',
      sourceUrl: `https://github.com/${owner}/${repo}`,
      fetch: (c) => githubDraft(owner, repo, c),
    };
  }
  if (h === 'pypi.org' || h === 'pypi.python.org') {
    const name = parts[0] === 'project' || parts[0] === 'simple' || parts[0] === 'pypi' ? parts[1] : undefined;
    if (!name || !PYPI_NAME.test(name)) return null;
    return { kind: 'pypi', sourceUrl: `https://pypi.org/project/${name}/`, fetch: (c) => pypiDraft(name, c) };
  }
  if (h === 'npmjs.com' || h === 'registry.npmjs.org') {
    const rest = h === 'npmjs.com' ? (parts[0] === 'package' ? parts.slice(1) : []) : parts;
    const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : rest[0];
    if (!name || !NPM_NAME.test(name.toLowerCase())) return null;
    return { kind: 'npm', sourceUrl: `https://www.npmjs.com/package/${name}`, fetch: (c) => npmDraft(name, c) };
  }
  return null;
}

const normal = (url: string) =>
  url
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/(\.git)?\/*$/, '');

/** What existingFor looks in: a snapshot, or the importer's view of the catalog. */
export interface KnownContracts {
  byAid: ReadonlyMap<string, ToolContract>;
  tools: readonly ToolContract[];
}

/** The contract already made from this source, if any. */
export function existingFor(snapshot: KnownContracts, sourceUrl: string, aid: string): ToolContract | undefined {
  const byAid = snapshot.byAid.get(aid);
  if (byAid) return byAid;
  const key = normal(sourceUrl);
  return snapshot.tools.find((t) => normal(t.action.source_url) === key);
}

/** The registry's connection details over the old ones; the tools a handshake read stay until it reads again. */
function mergedMcp(next: McpServer, old: McpServer | undefined): McpServer {
  if (!old) return next;
  const { tools, tools_read_at, server_info } = old;
  return { ...next, ...(server_info ? { server_info } : {}), tools_read_at, tools };
}

/** A deprecation the registry announces wins; one it withdraws returns to active; review, dead … stay. */
function statusOf(deprecated: boolean | undefined, old: Trust['status'] | undefined): Trust['status'] {
  if (deprecated) return 'deprecated';
  if (old === undefined || (old === 'deprecated' && deprecated === false)) return 'active';
  return old;
}

function mergedRequires(next: Requires | undefined, old: Requires | undefined): Requires | undefined {
  if (!next) return old;
  const merged: Requires = { ...old, ...next };
  if (next.runtime || old?.runtime) merged.runtime = { ...old?.runtime, ...next.runtime };
  return merged;
}

/**
 * The contract to store. A new one gets neutral defaults where the source says nothing (schemas `any`,
 * reliability 0.5 until telemetry speaks). An existing one keeps its aid, logic, trust and record, and
 * keeps any field the source leaves null. What the registry states about the package (version, licence,
 * runtime minimums, deprecation, an MCP server's connection) replaces the old value.
 */
export function contractFrom(d: Draft, existing: ToolContract | undefined): ToolContract {
  const keep = <T>(v: T | null, old: T | null | undefined): T | null => v ?? old ?? null;
  const task = keep(d.task, existing?.identity.task);
  const tags = d.tags.length ? d.tags : (existing?.identity.tags ?? []);
  // A fresh download figure replaces the old one; none keeps what the contract had.
  const pop = d.popularity ?? null;
  const kind = d.kind ?? existing?.identity.kind;
  const logic = d.logic ?? existing?.logic ?? { input_schema: { type: 'any' }, output_schema: { type: 'any' } };
  const mcp = d.mcp ? mergedMcp(d.mcp, existing?.logic.mcp) : logic.mcp;
  const trust = existing?.trust ?? d.trust ?? { reliability_score: 0.5, latency_ms: null, status: 'active' };
  const requires = mergedRequires(d.requires, existing?.action.requires);
  return {
    identity: {
      aid: existing?.identity.aid ?? d.aid,
      name: d.name,
      version: keep(d.version, existing?.identity.version),
      ...(task ? { task } : {}),
      ...(tags.length ? { tags } : {}),
      platform: d.platform,
      ...(kind ? { kind } : {}),
      license: keep(d.license, existing?.identity.license),
    },
    logic: { ...logic, ...(mcp ? { mcp } : {}) },
    trust: {
      ...trust,
      status: statusOf(d.deprecated, trust.status),
      ...(pop ? { popularity: pop.value } : {}),
    },
    action: {
      source_url: d.source_url,
      install_cmd: keep(d.install_cmd, existing?.action.install_cmd),
      execute_cmd: keep(d.execute_cmd, existing?.action.execute_cmd),
      ...(requires ? { requires } : {}),
    },
    record: {
      ...(existing?.record ?? { verified: true, reliability_calculated_at: null }),
      ...(pop ? { popularity_source: pop.source, popularity_measured_at: pop.measuredAt } : {}),
    },
  };
}
