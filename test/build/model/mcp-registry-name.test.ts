// The registry name of an MCP-server contract: the given one, else derived from the package, the repository or
// the host, always matching the official pattern, and the same for the same contract.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { mcpRegistryName, REGISTRY_NAME_PATTERN } from '../../../build/model/mcp-registry-name.ts';
import { toolContract } from '../../helpers/tool-contract.ts';

function server(
  platform: 'npm' | 'pypi' | 'github',
  name: string,
  sourceUrl: string,
  mcp: Partial<NonNullable<ToolContract['logic']['mcp']>> = {},
): ToolContract {
  const c = toolContract(`${platform}-x-v1`, platform, { source_url: sourceUrl });
  c.identity = { ...c.identity, name, kind: 'mcp_server' };
  c.logic = { ...c.logic, mcp: { transport: 'stdio', tools_read_at: null, tools: [], ...mcp } };
  return c;
}

describe('mcpRegistryName', () => {
  it.each([
    [
      'given registry_name wins',
      server('npm', 'pkg', 'https://www.npmjs.com/package/pkg', { registry_name: 'io.github.o/s' }),
      'io.github.o/s',
    ],
    [
      'scoped npm package',
      server('npm', '@Scope_x/server-fs', 'https://github.com/o/monorepo'),
      'com.npmjs.scope-x/server-fs',
    ],
    [
      'unscoped npm package',
      server('npm', 'notes-mcp', 'https://www.npmjs.com/package/notes-mcp'),
      'com.npmjs/notes-mcp',
    ],
    [
      'PyPI name normalised (PEP 503)',
      server('pypi', 'MCP_Server.Fetch', 'https://pypi.org/project/x/'),
      'org.pypi/mcp-server-fetch',
    ],
    [
      'GitHub repository',
      server('github', 'o/r', 'https://github.com/Some-Org/weather.git'),
      'io.github.some-org/weather',
    ],
    ['GitLab repository', server('github', 'o/r', 'https://gitlab.com/team/tool'), 'com.gitlab.team/tool'],
    [
      'remote URL host, reversed',
      server('github', 'weather', 'https://example.org/about', {
        transport: 'sse',
        url: 'https://mcp.example.com/sse',
      }),
      'com.example.mcp/weather',
    ],
  ])('%s', (_, contract, expected) => {
    expect(mcpRegistryName(contract)).toBe(expected);
    expect(mcpRegistryName(contract)).toMatch(REGISTRY_NAME_PATTERN);
  });

  it('always gives a name in the official pattern, whatever the package name holds', () => {
    for (const name of ['@/x', '@@', '中文', '!!!', 'a'.repeat(300), '@scope/' + 'b'.repeat(300)]) {
      const got = mcpRegistryName(server('npm', name, 'not a url'));
      expect(got, name).toMatch(REGISTRY_NAME_PATTERN);
      expect(got.length).toBeLessThanOrEqual(200);
    }
  });
});
