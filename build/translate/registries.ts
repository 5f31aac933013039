// Package registries. PyPI: GET /pypi/<name>/json (info: name, version, summary, keywords, licence
// expression or classifiers). npm: the registry's package document GET /<name> (dist-tags.latest, that
// version's description, keywords, licence and bin). Install commands are the registry's own
// (`pip install`, `npm install`), held to the latest version's release line; an execute command only where a
// package declares a CLI (npm `bin`).
// Both also give runtime minimums (engines.node, requires_python) and deprecation; a package that is an
// MCP server (mcp-package.ts) becomes an mcp_server draft with a pinned install and a stdio start command.
import { npmMcpSignal, pypiIsMcpServer, stdioServer } from './mcp-package.ts';
import { npmPopularity } from './npm-popularity.ts';
import { nodeMinimum, pythonMinimum } from './runtime-requirements.ts';
import { fetchUpstreamJson, type UpstreamConfig, UpstreamError } from './upstream-fetch.ts';
import { aidOf, type Draft, line, spdxOf, tagsOf } from './common.ts';

interface PypiInfo {
  name?: unknown;
  version?: unknown;
  summary?: unknown;
  keywords?: unknown;
  license?: unknown;
  license_expression?: unknown;
  classifiers?: unknown;
  requires_python?: unknown;
  requires_dist?: unknown;
}

function pypiLicense(info: PypiInfo): string | null {
  const direct = spdxOf(info.license_expression) ?? spdxOf(info.license);
  if (direct) return direct;
  const classifiers = Array.isArray(info.classifiers)
    ? info.classifiers.filter((c): c is string => typeof c === 'string')
    : [];
  const named = classifiers.filter((c) => c.startsWith('License :: ')).map((c) => spdxOf(c.split(' :: ').at(-1)));
  // Several licence classifiers (dual licensing) would need an OR we cannot be sure of.
  return named.length === 1 ? (named[0] ?? null) : null;
}

export async function pypiDraft(project: string, cfg: UpstreamConfig): Promise<Draft> {
  const doc = (await fetchUpstreamJson(`${cfg.pypi}/pypi/${encodeURIComponent(project)}/json`, cfg, 'PyPI')) as {
    info?: PypiInfo;
  };
  const info = doc.info ?? {};
  const name = named(info.name, PYPI_NAME, project);
  const tags = tagsOf(info.keywords);
  const version = line(info.version, 100);
  const python = pythonMinimum(info.requires_python);
  const classifiers = Array.isArray(info.classifiers) ? info.classifiers : [];
  const draft: Draft = {
    aid: aidOf('pypi', name),
    name,
    version,
    task: line(info.summary, 500),
    tags,
    platform: 'pypi',
    license: pypiLicense(info),
    source_url: `https://pypi.org/project/${name}/`,
    install_cmd: `pip install ${name}${pypiReleaseLine(version)}`,
    execute_cmd: null,
    ...(python ? { requires: { runtime: { python } } } : {}),
    deprecated: classifiers.includes('Development Status :: 7 - Inactive'),
  };
  if (!pypiIsMcpServer(info.requires_dist, tags)) return draft;
  // The console script named like the project, as `uvx <project>` runs it.
  return {
    ...draft,
    kind: 'mcp_server',
    install_cmd: version ? `pip install ${name}==${version}` : `pip install ${name}`,
    execute_cmd: name,
    mcp: stdioServer(null),
  };
}

interface NpmVersion {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  keywords?: unknown;
  license?: unknown;
  bin?: unknown;
  engines?: unknown;
  deprecated?: unknown;
  dependencies?: unknown;
  mcpName?: unknown;
}

/**
 * The release line an npm library's install stays on: `@3` for 3.x.y, `@0.67` for 0.67.x (below 1.0 a minor may
 * break). The contract is verified on that line; a later major can change the API its command uses.
 */
function releaseLine(version: string | null): string {
  const m = version ? /^(\d+)\.(\d+)\.\d+$/.exec(version) : null;
  if (!m) return '';
  return m[1] === '0' ? `@0.${m[2]}` : `@${m[1]}`;
}

/**
 * The same line for pip, as a compatible-release clause: `~=3.0` for 3.x (any 3.y), `~=0.16.0` for 0.16.x.
 * PyPI versions need not have three parts (`2024.1`, `2.9.0.post0`); the first two are enough.
 */
function pypiReleaseLine(version: string | null): string {
  const m = version ? /^(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return '';
  return m[1] === '0' ? `~=0.${m[2]}.0` : `~=${m[1]}.0`;
}

function npmExecute(pkg: string, bin: unknown): string | null {
  if (typeof bin === 'string' && bin) return `npx ${pkg}`;
  if (!bin || typeof bin !== 'object') return null;
  const names = Object.keys(bin).filter((k) => /^[\w.-]{1,100}$/.test(k));
  const first = names[0];
  if (first === undefined) return null;
  // npx runs a package's only command, or the one named like the package.
  if (names.length === 1 || names.includes(pkg.replace(/^@[^/]+\//, ''))) return `npx ${pkg}`;
  return `npx -p ${pkg} ${first}`;
}

// Names go into shell commands: only what the registries themselves allow.
export const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]{0,213}$/;
export const PYPI_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,198}[A-Za-z0-9])?$/;
const named = (value: unknown, pattern: RegExp, fallback: string) =>
  typeof value === 'string' && pattern.test(value) ? value : fallback;

export async function npmDraft(pkg: string, cfg: UpstreamConfig): Promise<Draft> {
  // The npm CLI's own spelling of a scoped name in the registry path: @scope%2fname.
  const path = `${cfg.npmRegistry}/${pkg.startsWith('@') ? `@${pkg.slice(1).split('/').map(encodeURIComponent).join('%2f')}` : encodeURIComponent(pkg)}`;
  let latest: NpmVersion;
  try {
    const doc = (await fetchUpstreamJson(path, cfg, 'npm registry')) as {
      'dist-tags'?: { latest?: unknown };
      versions?: Record<string, NpmVersion>;
      description?: unknown;
    };
    const tag = doc['dist-tags']?.latest;
    latest = { description: doc.description, ...(typeof tag === 'string' ? doc.versions?.[tag] : undefined) };
  } catch (error) {
    // A popular package's full document can pass 5 MB; its latest version's document is small.
    if (!(error instanceof UpstreamError && error.tooLarge)) throw error;
    latest = (await fetchUpstreamJson(`${path}/latest`, cfg, 'npm registry')) as NpmVersion;
  }
  const name = named(latest.name, NPM_NAME, pkg);
  const popularity = await npmPopularity(name, cfg);
  const license =
    typeof latest.license === 'object' && latest.license ? (latest.license as { type?: unknown }).type : latest.license;
  const tags = tagsOf(latest.keywords);
  const version = line(latest.version, 100);
  const node = nodeMinimum(latest.engines);
  const draft: Draft = {
    aid: aidOf('npm', name),
    name,
    version,
    task: line(latest.description, 500),
    tags,
    platform: 'npm',
    license: spdxOf(license),
    source_url: `https://www.npmjs.com/package/${name}`,
    install_cmd: `npm install ${name}${releaseLine(version)}`,
    execute_cmd: npmExecute(name, latest.bin),
    popularity,
    ...(node ? { requires: { runtime: { node } } } : {}),
    deprecated: typeof latest.deprecated === 'string' && latest.deprecated.length > 0,
  };
  const mcp = npmMcpSignal(latest, tags);
  if (!mcp || !draft.execute_cmd) return draft;
  return {
    ...draft,
    kind: 'mcp_server',
    install_cmd: version ? `npm install ${name}@${version}` : draft.install_cmd,
    mcp: stdioServer(typeof mcp === 'string' ? mcp : null),
  };
}
