// One MCP-server contract as the official MCP registry serves a server (v0.1 ServerResponse): the
// server.json (name, description, version, repository, packages[], remotes[]) and, beside it in `_meta`, the
// registry's own block (status, updatedAt, isLatest) and ours under SUBREGISTRY_META_KEY: the contract's aid
// and links, its trust and verification evidence, and the tools a real handshake listed, with their hashes.
import type { ToolContract } from '../../build/model/contract.ts';
import { servedStatus, trustVerification } from '../../build/model/views.ts';
import { SUBREGISTRY } from '../messages.ts';

/** Our namespaced key in `_meta`: the name this service is published under in the official registry. */
export const SUBREGISTRY_META_KEY = 'io.github.tool-contract-catalog/catalog';
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

/** server.json `description` is at most 100 characters in the official schema. */
const DESCRIPTION_MAX = 100;
const TITLE_MAX = 100;

export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

/** What the subregistry knows about one entry besides the contract (computed over all entries of a name). */
export interface EntryFacts {
  name: string;
  version: string;
  status: RegistryStatus;
  /** The newest of the contract's dated events, or null when it has none. */
  updatedAt: string | null;
  isLatest: boolean;
}

/** Cut at a word boundary with an ellipsis, so a long task still reads as a sentence. */
export function clipText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** Our five statuses in the official three: review and degraded are still served (with a message). */
export function registryStatus(c: ToolContract): RegistryStatus {
  if (c.trust.status === 'dead') return 'deleted';
  if (c.trust.status === 'deprecated') return 'deprecated';
  return 'active';
}

/** The version a server entry carries: the package's, else what the server said in the handshake. */
export const entryVersion = (c: ToolContract) => c.identity.version ?? c.logic.mcp?.server_info?.version ?? 'unknown';

/** When the entry last changed: verification, tool-list read, change found or reviewed, scores recomputed. */
export function updatedAtOf(c: ToolContract): string | null {
  const r = c.record;
  const dates = [
    r?.verification?.checked_at,
    c.logic.mcp?.tools_read_at,
    r?.reliability_calculated_at,
    ...(r?.mcp_tool_changes ?? []).flatMap((ch) => [ch.detected_at, ch.reviewed_at]),
  ].filter((d): d is string => typeof d === 'string' && !Number.isNaN(Date.parse(d)));
  if (dates.length === 0) return null;
  return new Date(Math.max(...dates.map((d) => Date.parse(d)))).toISOString();
}

const isLoopback = (url: string) => {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

function repositoryOf(sourceUrl: string) {
  const m = /^https?:\/\/(?:www\.)?(github|gitlab)\.com\/([^/#?]+)\/([^/#?]+)/i.exec(sourceUrl);
  if (!m) return undefined;
  const source = (m[1] as string).toLowerCase();
  return { url: `https://${source}.com/${m[2]}/${(m[3] as string).replace(/\.git$/, '')}`, source };
}

const REGISTRY_BASE: Record<string, string> = { npm: 'https://registry.npmjs.org', pypi: 'https://pypi.org' };
const RUNTIME_HINTS = new Set(['npx', 'uvx', 'docker', 'dnx']);

/**
 * The package entry: npm and PyPI contracts whose transport a client can start locally (stdio, or HTTP on a
 * loopback URL). A remote URL is a `remotes[]` entry instead; GitHub-only servers have no package type.
 */
function packagesOf(c: ToolContract) {
  const mcp = c.logic.mcp;
  const base = REGISTRY_BASE[c.identity.platform];
  if (!mcp || !base) return [];
  let transport: Record<string, string>;
  if (mcp.transport === 'stdio') transport = { type: 'stdio' };
  else if (mcp.url && isLoopback(mcp.url)) transport = { type: mcp.transport, url: mcp.url };
  else return [];
  const first = c.action.execute_cmd?.trim().split(/\s+/)[0];
  return [
    {
      registryType: c.identity.platform,
      registryBaseUrl: base,
      identifier: c.identity.name,
      ...(c.identity.version && c.identity.version !== 'latest' ? { version: c.identity.version } : {}),
      ...(first && RUNTIME_HINTS.has(first) ? { runtimeHint: first } : {}),
      transport,
      ...(mcp.arguments?.length
        ? { packageArguments: mcp.arguments.map((value) => ({ type: 'positional', value })) }
        : {}),
      ...(mcp.env_vars?.length
        ? {
            environmentVariables: mcp.env_vars.map((v) => ({
              name: v.name,
              ...(v.description ? { description: v.description } : {}),
              isRequired: v.is_required ?? false,
              isSecret: v.is_secret ?? false,
              ...(v.format ? { format: v.format } : {}),
              ...(v.default !== undefined ? { default: v.default } : {}),
              ...(v.placeholder ? { placeholder: v.placeholder } : {}),
              ...(v.choices?.length ? { choices: v.choices } : {}),
            })),
          }
        : {}),
    },
  ];
}

function remotesOf(c: ToolContract) {
  const mcp = c.logic.mcp;
  if (!mcp?.url || mcp.transport === 'stdio' || isLoopback(mcp.url)) return [];
  return [{ type: mcp.transport, url: mcp.url }];
}

/** server.json of a contract (the official ServerDetail). */
export function serverJson(c: ToolContract, facts: EntryFacts) {
  const repository = repositoryOf(c.action.source_url);
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: facts.name,
    title: clipText(c.identity.name, TITLE_MAX) || c.identity.aid,
    // A task of only spaces cuts to nothing; the official schema wants at least one character.
    description:
      clipText(c.identity.task ?? '', DESCRIPTION_MAX) || clipText(c.identity.name, DESCRIPTION_MAX) || c.identity.aid,
    version: facts.version,
    ...(repository ? { repository } : {}),
    websiteUrl: c.action.source_url,
    packages: packagesOf(c),
    remotes: remotesOf(c),
  };
}

/** Our evidence: what the catalog checked, when, and the tools the server really listed. */
function catalogMeta(c: ToolContract, baseUrl: string) {
  const mcp = c.logic.mcp;
  const v = trustVerification(c);
  const reason = c.record?.verification?.reason;
  return {
    aid: c.identity.aid,
    contract: `${baseUrl}/api/v1/tools/${c.identity.aid}`,
    page: `${baseUrl}/tools/${c.identity.aid}/`,
    platform: c.identity.platform,
    license: c.identity.license,
    trust: {
      status: servedStatus(c),
      reliability_score: c.trust.reliability_score,
      verification: v ? { ...v, reason: reason ?? null } : null,
    },
    transport: mcp?.transport ?? null,
    server_info: mcp?.server_info ?? null,
    tools_read_at: mcp?.tools_read_at ?? null,
    tools: (mcp?.tools ?? []).map((t) => ({
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.input_schema ? { inputSchema: t.input_schema } : {}),
      hash: t.hash,
      flags: t.flags ?? [],
    })),
    tool_changes: c.record?.mcp_tool_changes ?? [],
  };
}

function statusMessage(c: ToolContract): string | undefined {
  const served = servedStatus(c);
  if (served === 'review') return SUBREGISTRY.statusReview;
  if (served === 'degraded') return SUBREGISTRY.statusDegraded;
  return undefined;
}

/** One entry of `servers[]` (the official ServerResponse). */
export function serverResponse(c: ToolContract, facts: EntryFacts, baseUrl: string) {
  const message = statusMessage(c);
  return {
    server: serverJson(c, facts),
    _meta: {
      [OFFICIAL_META_KEY]: {
        status: facts.status,
        ...(message ? { statusMessage: message } : {}),
        ...(facts.updatedAt ? { updatedAt: facts.updatedAt } : {}),
        isLatest: facts.isLatest,
      },
      [SUBREGISTRY_META_KEY]: catalogMeta(c, baseUrl),
    },
  };
}
export type ServerResponse = ReturnType<typeof serverResponse>;
