// The name an MCP-server contract goes by in a registry (`namespace/server`, as the official MCP registry
// names servers): logic.mcp.registry_name when the contract has one, otherwise one derived from the package
// or repository it comes from, so the same contract always gets the same name. The package comes first:
// monorepos hold many servers (github.com/modelcontextprotocol/servers), packages hold one.
import type { ToolContract } from './contract.ts';
import { normalizePypiName } from './pypi-name.ts';

/** The official registry's pattern for server names (server.json `name`). */
export const REGISTRY_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const NAME_MAX = 200;

/** A namespace part: reverse-DNS labels allow letters, digits, dots and hyphens only. */
const nsPart = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
/** A server part: letters, digits, dots, underscores and hyphens. */
const serverPart = (s: string) => s.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');

function join(namespace: string, server: string): string | null {
  const ns = nsPart(namespace);
  const sv = serverPart(server);
  if (!ns || !sv) return null;
  const name = `${ns}/${sv}`.slice(0, NAME_MAX);
  return REGISTRY_NAME_PATTERN.test(name) ? name : null;
}

/** npm `@scope/pkg` → `com.npmjs.scope/pkg`, `pkg` → `com.npmjs/pkg`. */
function fromNpm(pkg: string): string | null {
  const scoped = /^@([^/]+)\/(.+)$/.exec(pkg);
  return scoped ? join(`com.npmjs.${scoped[1]}`, scoped[2] as string) : join('com.npmjs', pkg);
}

/** PyPI names are compared normalised (PEP 503): lower case, runs of `-_.` as one `-`. */
const fromPypi = (pkg: string) => join('org.pypi', normalizePypiName(pkg));

/** `https://github.com/owner/repo…` → `io.github.owner/repo`, the official registry's own convention. */
function fromRepository(url: string): string | null {
  const m = /^https?:\/\/(?:www\.)?(github|gitlab)\.com\/([^/]+)\/([^/#?]+)/i.exec(url);
  if (!m) return null;
  const host = (m[1] as string).toLowerCase() === 'github' ? 'io.github' : 'com.gitlab';
  return join(`${host}.${m[2]}`, (m[3] as string).replace(/\.git$/, ''));
}

/** Any other source: the reversed host name, then the contract's name. */
function fromHost(url: string, name: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
  return join(host.split('.').reverse().join('.'), name);
}

export function mcpRegistryName(c: ToolContract): string {
  const given = c.logic.mcp?.registry_name;
  if (given) return given;
  const { platform, name, aid } = c.identity;
  const derived =
    (platform === 'npm' && fromNpm(name)) ||
    (platform === 'pypi' && fromPypi(name)) ||
    fromRepository(c.action.source_url) ||
    (c.logic.mcp?.url && fromHost(c.logic.mcp.url, name)) ||
    fromHost(c.action.source_url, name);
  // The aid is unique and always fits the server part: the last resort keeps every contract reachable.
  return derived || (join('io.github.tool-contract-catalog', aid) as string);
}
