// Tool results in MCP's shape, and the one place a domain error becomes an MCP tool error. A domain problem
// (unknown aid, invalid payload, rate limit, storage down) is a result with isError, worded so a model can
// correct itself; it never becomes a JSON-RPC error or a 500.
import type { ErrorObject } from 'ajv';
import { HTTPError } from 'h3';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP } from '../messages.ts';
import { DomainError, type ValidationItem } from '../services/errors.ts';

export function toolResult(value: object): CallToolResult {
  // The text copy is for clients that ignore structuredContent.
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

// REST validation items point into the body (['body', 'tax_payload', 'trend_keyword']); here they are arguments.
const where = (loc: (string | number)[]) =>
  loc.filter((p) => p !== 'body' && p !== 'tax_payload').join('.') || 'arguments';

function describeDetail(detail: unknown, status?: number): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return MCP.invalidArguments((detail as ValidationItem[]).map((it) => `${where(it.loc)}: ${it.msg}`));
  return `Error ${status ?? ''}`.trim();
}

/**
 * The isError result for anything a tool threw: domain errors (api/services/errors.ts) in their own words,
 * HTTP-level refusals (a body over the limit) by their detail; anything else is logged and described
 * generically.
 */
export function resultOfError(error: unknown, tool: string): CallToolResult {
  if (error instanceof DomainError) return errorResult(describeDetail(error.detail));
  // 4xx are the caller's to fix; a 503 already says to retry.
  if (error instanceof HTTPError && (error.status < 500 || error.status === 503)) {
    return errorResult(describeDetail((error.data as { detail?: unknown } | undefined)?.detail, error.status));
  }
  console.error(`mcp: ${tool} failed:`, error);
  return errorResult(MCP.toolFailed(tool));
}

/** Schema errors of tool arguments, one clause each: "limit: must be <= 10". */
export function describeArgumentErrors(errors: ErrorObject[] | null | undefined): string {
  const clauses = (errors ?? []).map((e) => {
    const p = e.params as Record<string, unknown>;
    const path = e.instancePath.split('/').filter(Boolean).join('.');
    if (e.keyword === 'required') return `${String(p.missingProperty)}: required`;
    if (e.keyword === 'additionalProperties') return `${String(p.additionalProperty)}: unknown argument`;
    if (e.keyword === 'enum')
      return `${path}: must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    return `${path || 'arguments'}: ${e.message ?? 'invalid'}`;
  });
  return MCP.invalidArguments([...new Set(clauses)]);
}
