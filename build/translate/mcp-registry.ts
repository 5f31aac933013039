// A server in the official MCP registry (v0.1 API, https://registry.modelcontextprotocol.io, MCP_REGISTRY_URL):
// `GET /v0.1/servers/{name}/versions/{version|latest}` answers `{server: server.json, _meta}`. The contract is
// made from the server's package when it has one (npm first, then PyPI: the package's own document gives the
// bin, licence, popularity and runtime), so it is the same contract an import of that package makes; a server
// that is only a remote endpoint becomes `mcp-<registry name>-v1` with the endpoint in logic.mcp.url.
//
// Accepted URLs (any host of the registry: the official one or MCP_REGISTRY_URL's), `v0` or `v0.1`:
//   …/v0.1/servers/<name>/versions/<version|latest>, …/v0.1/servers/<name> (latest);
//   <name> percent-encoded (io.github.acme%2Fweather) or as its two path segments.
import { quote } from 'shell-quote';
import {
  MCP_ENV_FORMATS,
  type McpEnvVar,
  type McpServer,
  type McpTransport,
  type Requires,
} from '../model/contract.ts';
import { aidOf, type Draft, line } from './common.ts';
import { REGISTRY_NAME, stdioServer } from './mcp-package.ts';
import { UPSTREAM } from './messages.ts';
import { npmDraft, pypiDraft } from './registries.ts';
import { fetchUpstreamJson, type UpstreamConfig, UpstreamError } from './upstream-fetch.ts';

export const OFFICIAL_MCP_REGISTRY = 'https://registry.modelcontextprotocol.io';
const NAME = 'MCP registry';
const VERSION = /^[\w.+-]{1,100}$/;

interface Argument {
  type?: unknown;
  name?: unknown;
  value?: unknown;
  default?: unknown;
}
interface EnvironmentVariable {
  name?: unknown;
  description?: unknown;
  isRequired?: unknown;
  isSecret?: unknown;
  format?: unknown;
  default?: unknown;
  placeholder?: unknown;
  choices?: unknown;
}
interface Package {
  registryType?: unknown;
  identifier?: unknown;
  version?: unknown;
  transport?: { type?: unknown; url?: unknown };
  environmentVariables?: unknown;
  packageArguments?: unknown;
}
interface Remote {
  type?: unknown;
  url?: unknown;
}
export interface ServerJson {
  name?: unknown;
  description?: unknown;
  version?: unknown;
  status?: unknown;
  repository?: { url?: unknown; source?: unknown };
  packages?: unknown;
  remotes?: unknown;
}
/** One entry of a list page or a version lookup. */
export interface ServerEntry {
  server?: ServerJson;
  _meta?: Record<string, unknown>;
}

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The server a URL names, when its host is a registry's. */
export function mcpServerRef(
  u: URL,
  parts: string[],
  cfg: UpstreamConfig,
): { name: string; version: string; url: string } | null {
  const hosts = [new URL(OFFICIAL_MCP_REGISTRY).host, new URL(cfg.mcpRegistry).host];
  if (!hosts.includes(u.host.toLowerCase())) return null;
  const at = parts.findIndex((p, i) => (p === 'v0.1' || p === 'v0') && parts[i + 1] === 'servers');
  if (at < 0) return null;
  const rest = parts.slice(at + 2);
  const v = rest.indexOf('versions');
  const nameParts = v < 0 ? rest : rest.slice(0, v);
  const version = v < 0 ? 'latest' : rest[v + 1];
  const name = nameParts.join('/');
  if (!REGISTRY_NAME.test(name) || !version || !VERSION.test(version) || (v >= 0 && rest.length !== v + 2)) return null;
  return { name, version, url: serverUrl(cfg.mcpRegistry, name, version) };
}

export const serverUrl = (registry: string, name: string, version = 'latest') =>
  `${registry}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;

export async function mcpRegistryDraft(name: string, version: string, cfg: UpstreamConfig): Promise<Draft> {
  const entry = (await fetchUpstreamJson(serverUrl(cfg.mcpRegistry, name, version), cfg, NAME)) as ServerEntry;
  // v0.1 wraps server.json; an older registry answers it bare.
  const server = entry && typeof entry === 'object' && entry.server ? entry.server : (entry as ServerJson);
  return serverDraft(server, entry?._meta, cfg);
}

/** Arguments with a value the registry gives (or its default); ones a user must fill are left to them. */
function argumentsOf(pkg: Package): string[] {
  const out: string[] = [];
  for (const a of list<Argument>(pkg.packageArguments)) {
    const value = str(a.value) ?? str(a.default);
    if (a.type === 'named' && str(a.name)) {
      out.push(a.name as string);
      if (value) out.push(value);
    } else if (a.type === 'positional' && value) out.push(value);
  }
  return out.filter((x) => x.length <= 500).slice(0, 30);
}

function envOf(pkg: Package): { env_vars: McpServer['env_vars']; requires: Requires | undefined } {
  const env_vars = list<EnvironmentVariable>(pkg.environmentVariables)
    .filter((e) => typeof e.name === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(e.name) && e.name.length <= 100)
    .slice(0, 50)
    .map((e): McpEnvVar => {
      const description = line(e.description, 500);
      const fallback = line(e.default, 500);
      const placeholder = line(e.placeholder, 200);
      const choices = (Array.isArray(e.choices) ? e.choices : [])
        .map((c) => line(c, 200))
        .filter((c): c is string => Boolean(c))
        .slice(0, 50);
      return {
        name: e.name as string,
        ...(description ? { description } : {}),
        is_required: e.isRequired === true,
        is_secret: e.isSecret === true,
        // The value's shape, so a verifier or client can give a value of the right kind.
        ...(MCP_ENV_FORMATS.includes(e.format as McpEnvVar['format'] & string)
          ? { format: e.format as McpEnvVar['format'] }
          : {}),
        ...(fallback ? { default: fallback } : {}),
        ...(placeholder ? { placeholder } : {}),
        ...(choices.length ? { choices } : {}),
      };
    });
  const required = [
    ...new Set(env_vars.filter((e) => e.is_required && /^[A-Z_][A-Z0-9_]*$/.test(e.name)).map((e) => e.name)),
  ];
  return { env_vars, requires: required.length ? { env: required.slice(0, 20) } : undefined };
}

const statusOf = (server: ServerJson, meta: Record<string, unknown> | undefined) => {
  const official = meta?.['io.modelcontextprotocol.registry/official'] as { status?: unknown } | undefined;
  return official?.status ?? server.status;
};

/** server.json (and its registry _meta) → a draft of kind mcp_server. */
export async function serverDraft(
  server: ServerJson,
  meta: Record<string, unknown> | undefined,
  cfg: UpstreamConfig,
): Promise<Draft> {
  const name = str(server.name);
  if (!name || !REGISTRY_NAME.test(name)) throw new UpstreamError(502, UPSTREAM.mcpNotAServer(hostOf(cfg)));
  const packages = list<Package>(server.packages);
  const stdio = (p: Package) => p.transport?.type === undefined || p.transport.type === 'stdio';
  const pkg =
    packages.find((p) => p.registryType === 'npm' && stdio(p)) ??
    packages.find((p) => p.registryType === 'pypi' && stdio(p));
  const deprecated = statusOf(server, meta) === 'deprecated' || statusOf(server, meta) === 'deleted';
  const task = line(server.description, 500);
  if (pkg && typeof pkg.identifier === 'string') {
    const npm = pkg.registryType === 'npm';
    const base = npm ? await npmDraft(pkg.identifier, cfg) : await pypiDraft(pkg.identifier, cfg);
    const version = line(pkg.version, 100) ?? base.version;
    const args = argumentsOf(pkg);
    const { env_vars, requires } = envOf(pkg);
    // npx runs the package's bin (from its npm document); a PyPI server's console script is named like it.
    const start = npm ? base.execute_cmd : base.name;
    const pin = version && VERSION.test(version) ? version : null;
    return {
      ...base,
      version,
      task: task ?? base.task,
      kind: 'mcp_server',
      install_cmd: npm
        ? `npm install ${base.name}${pin ? `@${pin}` : ''}`
        : `pip install ${base.name}${pin ? `==${pin}` : ''}`,
      execute_cmd: start ? [start, ...(args.length ? [quote(args)] : [])].join(' ') : null,
      mcp: stdioServer(name, {
        ...(args.length ? { arguments: args } : {}),
        ...(env_vars?.length ? { env_vars } : {}),
      }),
      requires: { ...base.requires, ...requires },
      deprecated: base.deprecated || deprecated,
    };
  }
  const remote = list<Remote>(server.remotes).find(
    (r) =>
      (r.type === 'streamable-http' || r.type === 'sse') && typeof r.url === 'string' && /^https?:\/\//.test(r.url),
  );
  if (!remote) throw new UpstreamError(502, UPSTREAM.mcpNothingToRun(name));
  return {
    aid: aidOf('mcp', name.replace('/', '-')),
    name: name.slice(0, 214),
    version: line(server.version, 100),
    task,
    tags: [],
    // The contract's platforms are package registries; a remote server is filed under its code's host.
    platform: 'github',
    license: null,
    source_url: serverUrl(cfg.mcpRegistry, name),
    install_cmd: null,
    execute_cmd: null,
    kind: 'mcp_server',
    mcp: {
      transport: remote.type as McpTransport,
      url: (remote.url as string).slice(0, 2000),
      registry_name: name,
      tools_read_at: null,
      tools: [],
    },
    requires: { network: true },
    deprecated,
  };
}

const hostOf = (cfg: UpstreamConfig) => new URL(cfg.mcpRegistry).host;
