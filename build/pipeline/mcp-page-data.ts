// What a tool page shows of an MCP server: the tools its last handshake listed (with their poisoning flags),
// whether it is under review, and the newest tool-list change with both descriptions.
import type { ToolContract } from '../model/contract.ts';
import { latestToolChange } from '../model/views.ts';

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
