// Is this npm or PyPI package an MCP server? A package that says so (package.json `mcpName`, the name it has
// in the official registry), or one that starts something (an npm bin; PyPI: any) and depends on the official
// SDK (`@modelcontextprotocol/sdk`, `mcp`) or carries the keyword. A library (the SDK itself, a client) has no
// bin, so it stays a tool. Such a package becomes an mcp_server contract run over stdio.
import type { McpServer } from '../model/contract.ts';

const MCP_KEYWORDS = new Set(['mcp', 'modelcontextprotocol', 'model-context-protocol', 'mcp-server']);
export const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

const hasKeyword = (tags: readonly string[]) => tags.some((t) => MCP_KEYWORDS.has(t));

export interface NpmManifestSignals {
  mcpName?: unknown;
  dependencies?: unknown;
  bin?: unknown;
}

/** The registry name (`mcpName`) when present, true when the package otherwise looks like a server, else false. */
export function npmMcpSignal(v: NpmManifestSignals, tags: readonly string[]): string | boolean {
  if (typeof v.mcpName === 'string' && REGISTRY_NAME.test(v.mcpName)) return v.mcpName;
  const bin = typeof v.bin === 'string' ? v.bin : v.bin && typeof v.bin === 'object' ? Object.keys(v.bin)[0] : null;
  if (!bin) return false;
  const deps = v.dependencies && typeof v.dependencies === 'object' ? v.dependencies : {};
  return Object.hasOwn(deps, '@modelcontextprotocol/sdk') || hasKeyword(tags);
}

/** True when a PyPI project depends on the official `mcp` package (or `fastmcp`) or carries the keyword. */
export function pypiIsMcpServer(requiresDist: unknown, tags: readonly string[]): boolean {
  const deps = Array.isArray(requiresDist) ? requiresDist.filter((d): d is string => typeof d === 'string') : [];
  // Only unconditional requirements: `mcp; extra == "server"` is an option, not what the package is.
  const core = deps.filter((d) => !/;\s*.*extra\s*==/.test(d)).map((d) => /^\s*([A-Za-z0-9._-]+)/.exec(d)?.[1]);
  return core.some((n) => n?.toLowerCase() === 'mcp' || n?.toLowerCase() === 'fastmcp') || hasKeyword(tags);
}

/** logic.mcp of a server started as a local process; tools are read later by verification. */
export function stdioServer(registryName: string | null, extra: Partial<McpServer> = {}): McpServer {
  return {
    transport: 'stdio',
    ...(registryName && REGISTRY_NAME.test(registryName) ? { registry_name: registryName } : {}),
    ...extra,
    tools_read_at: null,
    tools: [],
  };
}
