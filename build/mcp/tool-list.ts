// Stores a tool list read by a handshake into an MCP-server contract: each tool with its hash and poisoning
// flags (logic.mcp.tools), when and from which server it was read, and, when the list differs from the one
// stored before, the difference (record.mcp_tool_changes). A change or a flagged tool puts the contract in
// `review`; it stays there, through later verifications, until an operator marks it reviewed
// (markToolChangesReviewed). The first list read is not a change.
import type { McpServer, McpTool, McpToolChange, ToolContract } from '../model/contract.ts';
import { poisoningFlags } from './poisoning.ts';
import { diffTools } from './tool-diff.ts';
import { toolHash } from './tool-hash.ts';

/** A tool as a handshake read it (tools/list field names). */
export interface ReadTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: { title?: string } & Record<string, unknown>;
}

const MAX_TOOLS = 500;
const MAX_CHANGES = 50;
const MAX_DESCRIPTION = 10_000;

/** One listed tool as stored: the hash covers the full description, the stored text is capped. */
export function storedTool(t: ReadTool, serverTools: readonly string[]): McpTool {
  const title = t.title ?? t.annotations?.title;
  const flags = poisoningFlags({ name: t.name, description: t.description, input_schema: t.inputSchema }, serverTools);
  return {
    name: t.name.slice(0, 200),
    ...(title ? { title: title.slice(0, 200) } : {}),
    ...(t.description === undefined ? {} : { description: t.description.slice(0, MAX_DESCRIPTION) }),
    ...(t.inputSchema ? { input_schema: t.inputSchema } : {}),
    hash: toolHash({ name: t.name, description: t.description, input_schema: t.inputSchema }),
    ...(flags.length ? { flags: flags.slice(0, 20) } : {}),
  };
}

export interface ToolListUpdate {
  contract: ToolContract;
  /** The difference from the stored list; null on the first read or when nothing changed. */
  change: McpToolChange | null;
  /** Tools whose description was flagged. */
  flagged: string[];
  /** Flagged tools that are new or changed since the stored list (these put the contract in review). */
  newlyFlagged: string[];
}

/** The contract with the new list stored; status `review` on a change or a flag (dead and deprecated stay). */
export function recordToolList(
  contract: ToolContract,
  read: { server_info: { name: string; version?: string } | null; tools: ReadTool[] },
  at: Date = new Date(),
): ToolListUpdate {
  const now = at.toISOString();
  const mcp = contract.logic.mcp as McpServer;
  const names = read.tools.map((t) => t.name);
  const tools = read.tools.slice(0, MAX_TOOLS).map((t) => storedTool(t, names));
  const firstRead = mcp.tools_read_at == null && mcp.tools.length === 0;
  const change = firstRead ? null : diffTools(mcp.tools, tools, now);
  const flagged = tools.filter((t) => t.flags?.length).map((t) => t.name);
  // A flagged tool an operator already saw (same hash as in the stored list) does not reopen the review.
  const known = new Set(firstRead ? [] : mcp.tools.map((t) => t.hash));
  const newlyFlagged = tools.filter((t) => t.flags?.length && !known.has(t.hash)).map((t) => t.name);
  const info = read.server_info
    ? {
        name: read.server_info.name.slice(0, 200),
        ...(read.server_info.version ? { version: read.server_info.version.slice(0, 100) } : {}),
      }
    : undefined;
  const logic = {
    ...contract.logic,
    mcp: { ...mcp, ...(info ? { server_info: info } : {}), tools_read_at: now, tools },
  };
  const changes = change ? [...(contract.record?.mcp_tool_changes ?? []), change].slice(-MAX_CHANGES) : undefined;
  const keep = contract.trust.status === 'dead' || contract.trust.status === 'deprecated';
  const review = (change !== null || newlyFlagged.length > 0) && !keep;
  return {
    contract: {
      ...contract,
      logic,
      trust: review ? { ...contract.trust, status: 'review' } : contract.trust,
      ...(changes ? { record: { ...contract.record, mcp_tool_changes: changes } } : {}),
    },
    change,
    flagged,
    newlyFlagged,
  };
}

/** An operator looked at the changes and flags: every open change gets reviewed_at, review becomes active. */
export function markToolChangesReviewed(contract: ToolContract, at: Date = new Date()): ToolContract {
  const now = at.toISOString();
  const changes = contract.record?.mcp_tool_changes?.map((c) => (c.reviewed_at ? c : { ...c, reviewed_at: now }));
  return {
    ...contract,
    trust: contract.trust.status === 'review' ? { ...contract.trust, status: 'active' } : contract.trust,
    ...(changes ? { record: { ...contract.record, mcp_tool_changes: changes } } : {}),
  };
}
