// The identity of one tool an MCP server lists: sha256 of the canonical JSON (keys sorted at every depth) of
// its name, description and input schema. Title and annotations are left out: they are display text, while
// the description and schema are what the model reads and acts on, so a change there is a new tool.
import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';

// Deterministic (sorted keys); strict refuses what JSON cannot carry instead of silently dropping it.
const canonical = configure({ deterministic: true, strict: true, bigint: false });

/** JSON with object keys sorted at every depth, so the same content always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  return canonical(value) ?? 'null';
}

export interface HashableTool {
  name: string;
  description?: string | undefined;
  input_schema?: Record<string, unknown> | undefined;
}

/** `sha256:<hex>` of {name, description, input_schema}; an absent description or schema counts as null. */
export function toolHash(tool: HashableTool): string {
  const body = canonicalJson({
    name: tool.name,
    description: tool.description ?? null,
    input_schema: tool.input_schema ?? null,
  });
  return `sha256:${createHash('sha256').update(body, 'utf8').digest('hex')}`;
}
