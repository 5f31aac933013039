// What an import reads, per source: the names given, or the N most popular. npm and PyPI choose from the
// bundled corpus (build/bench/corpus.ts: downloads measured for 100,000 packages), never by scanning a
// registry for names; the MCP registry is paged through its own list (GET /v0.1/servers?cursor=&limit=).
// Every item makes its draft with build/translate, exactly as POST /api/v1/translate does.
import { readCorpus } from '../bench/corpus.ts';
import type { Draft } from '../translate/common.ts';
import { githubDraft } from '../translate/github.ts';
import { mcpRegistryDraft, type ServerEntry, serverDraft } from '../translate/mcp-registry.ts';
import { REGISTRY_NAME } from '../translate/mcp-package.ts';
import { NPM_NAME, npmDraft, PYPI_NAME, pypiDraft } from '../translate/registries.ts';
import { fetchUpstreamJson, type UpstreamConfig } from '../translate/upstream-fetch.ts';

export const IMPORT_SOURCES = ['npm', 'pypi', 'github', 'mcp-registry'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ImportItem {
  /** The name as given or listed (npm name, PyPI project, owner/repo, registry server name). */
  key: string;
  draft(cfg: UpstreamConfig): Promise<Draft>;
}

export class SelectionError extends Error {}

const GH_PART = /^[A-Za-z0-9_.-]{1,100}$/;
/** The registry's page size limit. */
const MCP_PAGE = 100;

function named(from: ImportSource, key: string): ImportItem {
  const bad = (why: string): ImportItem => ({
    key,
    draft: () => Promise.reject(new SelectionError(`${JSON.stringify(key)} is not ${why}`)),
  });
  switch (from) {
    case 'npm':
      return NPM_NAME.test(key) ? { key, draft: (c) => npmDraft(key, c) } : bad('an npm package name');
    case 'pypi':
      return PYPI_NAME.test(key) ? { key, draft: (c) => pypiDraft(key, c) } : bad('a PyPI project name');
    case 'github': {
      const [owner, repo, extra] = key.replace(/^https:\/\/github\.com\//, '').split('/');
      if (!owner || !repo || extra !== undefined || !GH_PART.test(owner) || !GH_PART.test(repo))
        return bad('owner/repo');
      return { key, draft: (c) => githubDraft(owner, repo.replace(/\.git$/, ''), c) };
    }
    case 'mcp-registry':
      return REGISTRY_NAME.test(key)
        ? { key, draft: (c) => mcpRegistryDraft(key, 'latest', c) }
        : bad('an MCP registry server name (namespace/name)');
  }
}

/** The N most downloaded packages of one registry in the corpus, most downloaded first. */
async function topOfCorpus(registry: 'npm' | 'pypi', n: number): Promise<string[]> {
  const all = await readCorpus();
  return all
    .filter((p) => p.registry === registry)
    .slice(0, n)
    .map((p) => p.name);
}

/** Pages through the registry's list (latest versions) until N servers; each entry already holds server.json. */
async function mcpRegistryPages(n: number, cfg: UpstreamConfig): Promise<ImportItem[]> {
  const out = new Map<string, ImportItem>();
  let cursor: string | null = null;
  for (let page = 0; out.size < n && page < 10_000; page++) {
    const q = new URLSearchParams({ limit: String(Math.min(MCP_PAGE, n - out.size)), version: 'latest' });
    if (cursor) q.set('cursor', cursor);
    const doc = (await fetchUpstreamJson(`${cfg.mcpRegistry}/v0.1/servers?${q}`, cfg, 'MCP registry')) as {
      servers?: ServerEntry[];
      metadata?: { nextCursor?: unknown };
    };
    for (const entry of Array.isArray(doc.servers) ? doc.servers : []) {
      const name = entry?.server?.name;
      if (typeof name !== 'string' || out.has(name) || out.size >= n) continue;
      out.set(name, { key: name, draft: (c) => serverDraft(entry.server ?? {}, entry._meta, c) });
    }
    cursor = typeof doc.metadata?.nextCursor === 'string' && doc.metadata.nextCursor ? doc.metadata.nextCursor : null;
    if (!cursor) break;
  }
  return [...out.values()];
}

export async function selectItems(
  from: ImportSource,
  selection: { names: string[] } | { top: number },
  cfg: UpstreamConfig,
): Promise<ImportItem[]> {
  if ('names' in selection) return [...new Set(selection.names)].map((k) => named(from, k));
  if (from === 'mcp-registry') return mcpRegistryPages(selection.top, cfg);
  if (from === 'github') throw new SelectionError('--top needs a download figure; for github give owner/repo names');
  return (await topOfCorpus(from, selection.top)).map((k) => named(from, k));
}
