// The package registries the install step may reach, taken from the environment (so tests and mirrors can
// point them elsewhere): npm's registry, pip's index, extra indexes and find-links. Remote ones become the
// proxy's allow-list; local ones (file:// indexes, wheel folders) are mounted read-only into the sandbox.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface Registries {
  npm: string;
  pipIndex: string;
  pipExtraIndexes: string[];
  pipFindLinks: string[];
}

const split = (value: string | undefined) => (value ?? '').split(/\s+/).filter(Boolean);

/** pip's own configuration (pip.conf), as `key='value'` lines; environment variables take precedence. */
function pipConfig(): Record<string, string> {
  const r = spawnSync('python3', ['-m', 'pip', 'config', 'list'], {
    encoding: 'utf8',
    env: { ...process.env, PIP_CONFIG_FILE: '' },
  });
  const out: Record<string, string> = {};
  if (r.status !== 0) return out;
  for (const line of r.stdout.split('\n')) {
    const m = /^(?:global|install)\.([a-z-]+)='(.*)'$/.exec(line.trim());
    if (m) out[m[1] as string] = m[2] as string;
  }
  return out;
}

export function registriesFromEnv(env: NodeJS.ProcessEnv = process.env): Registries {
  const conf = env.PIP_INDEX_URL && env.PIP_EXTRA_INDEX_URL !== undefined ? {} : pipConfig();
  return {
    npm: env.npm_config_registry || env.NPM_CONFIG_REGISTRY || env.NPM_REGISTRY_URL || 'https://registry.npmjs.org/',
    pipIndex: env.PIP_INDEX_URL || conf['index-url'] || 'https://pypi.org/simple',
    pipExtraIndexes: split(env.PIP_EXTRA_INDEX_URL ?? conf['extra-index-url']),
    pipFindLinks: split(env.PIP_FIND_LINKS ?? conf['find-links']),
  };
}

const PYPI_FILES = 'files.pythonhosted.org:443';

function hostPort(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.replace(/^\[|\]$/g, '')}:${port}`;
}

/** `host:port` pairs the install step may connect to, and local paths it may read. */
export function registryAccess(r: Registries): { hosts: string[]; paths: string[] } {
  const hosts = new Set<string>();
  const paths = new Set<string>();
  // A local "simple" index links its files relative to itself (../../files/…): mount the folder above it.
  const local = (p: string) =>
    paths.add(path.basename(p.replace(/\/+$/, '')) === 'simple' ? path.dirname(p.replace(/\/+$/, '')) : p);
  for (const entry of [r.npm, r.pipIndex, ...r.pipExtraIndexes, ...r.pipFindLinks]) {
    if (entry.startsWith('/')) {
      local(entry);
      continue;
    }
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      continue;
    }
    if (url.protocol === 'file:') local(decodeURIComponent(url.pathname));
    else if (url.protocol === 'http:' || url.protocol === 'https:') {
      hosts.add(hostPort(url));
      // pypi.org's index links its files on another host.
      if (url.hostname === 'pypi.org') hosts.add(PYPI_FILES);
    }
  }
  return { hosts: [...hosts], paths: [...paths] };
}

const CA_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'PIP_CERT'];

/**
 * The certificate settings of the host (a TLS-inspecting gateway's CA, say) for the install step: the same
 * variables, npm's `cafile` from them, and the files to mount read-only.
 */
export function trustSettings(env: NodeJS.ProcessEnv = process.env): { env: Record<string, string>; paths: string[] } {
  const out: Record<string, string> = {};
  const paths: string[] = [];
  for (const name of CA_VARIABLES) {
    const value = env[name];
    if (!value || !existsSync(value)) continue;
    out[name] = value;
    paths.push(value);
  }
  const cafile = env.npm_config_cafile || env.NODE_EXTRA_CA_CERTS || env.SSL_CERT_FILE;
  if (cafile && existsSync(cafile) && !cafile.endsWith('/')) {
    out.npm_config_cafile = cafile;
    paths.push(cafile);
  }
  return { env: out, paths: [...new Set(paths)] };
}
