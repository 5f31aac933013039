// The difference between two tool lists of one MCP server: what a rug pull looks like (a tool added, removed,
// or its name/description/schema changed under the same name). Tools are matched by name, compared by hash.
import type { McpTool, McpToolChange } from '../model/contract.ts';

type Listed = Pick<McpTool, 'name' | 'hash' | 'description'>;

/** The change from `before` to `after`, or null when both list the same tools with the same hashes. */
export function diffTools(before: Listed[], after: Listed[], detectedAt: string): McpToolChange | null {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const added = after.filter((t) => !old.has(t.name)).map((t) => t.name);
  const removed = before.filter((t) => !now.has(t.name)).map((t) => t.name);
  const changed: McpToolChange['changed'] = [];
  for (const t of after) {
    const was = old.get(t.name);
    if (!was || was.hash === t.hash) continue;
    changed.push({
      name: t.name,
      before: { hash: was.hash, ...(was.description === undefined ? {} : { description: was.description }) },
      after: { hash: t.hash, ...(t.description === undefined ? {} : { description: t.description }) },
    });
  }
  if (!added.length && !removed.length && !changed.length) return null;
  return { detected_at: detectedAt, added, removed, changed };
}
