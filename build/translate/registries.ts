// Package registries. PyPI: GET /pypi/<name>/json (info: name, version, summary, keywords, licence
// expression or classifiers). npm: the registry's package document GET /<name> (dist-tags.latest, that
// version's description, keywords, licence and bin). Install commands are the registry's own
// (`pip install`, `npm install`); an execute command only where a package declares a CLI (npm `bin`).
import { npmPopularity } from './npm-popularity.ts';
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
  return {
    aid: aidOf('pypi', name),
    name,
    version: line(info.version, 100),
    task: line(info.summary, 500),
    tags: tagsOf(info.keywords),
    platform: 'pypi',
    license: pypiLicense(info),
    source_url: `https://pypi.org/project/${name}/`,
    install_cmd: `pip install ${name}`,
    execute_cmd: null,
  };
}

interface NpmVersion {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  keywords?: unknown;
  license?: unknown;
  bin?: unknown;
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
  return {
    aid: aidOf('npm', name),
    name,
    version: line(latest.version, 100),
    task: line(latest.description, 500),
    tags: tagsOf(latest.keywords),
    platform: 'npm',
    license: spdxOf(license),
    source_url: `https://www.npmjs.com/package/${name}`,
    install_cmd: `npm install ${name}`,
    execute_cmd: npmExecute(name, latest.bin),
    popularity,
  };
}
