// A minimal valid tool contract for tests that only care about its commands and inputs.
import type { ToolContract } from '../../build/model/contract.ts';

export function toolContract(
  aid: string,
  platform: 'npm' | 'pypi' | 'github',
  action: Record<string, unknown>,
  properties: Record<string, unknown> = {},
): ToolContract {
  return {
    identity: { aid, name: aid.replace(/^(npm|pypi|github)-|-v1$/g, ''), version: '1.0.0', platform, license: 'MIT' },
    logic: { input_schema: { type: 'string', properties }, output_schema: { type: 'string' } },
    trust: { reliability_score: 0.5, latency_ms: null, status: 'active' },
    action: { source_url: 'https://example.com/', install_cmd: null, execute_cmd: null, ...action },
  } as ToolContract;
}

/** A minimal MCP-server contract for `npm install NAME` and `npx NAME`, no tools read yet. */
export function mcpContract(
  name: string,
  mcp: Partial<NonNullable<ToolContract['logic']['mcp']>> = {},
  action: Record<string, unknown> = {},
): ToolContract {
  const c = toolContract(`npm-${name}-v1`, 'npm', {
    install_cmd: `npm install ${name}`,
    execute_cmd: `npx ${name}`,
    ...action,
  });
  c.identity.kind = 'mcp_server';
  c.logic.mcp = { transport: 'stdio', tools_read_at: null, tools: [], ...mcp };
  return c;
}
