// Compiled web-API manifests (catalog/apis/*.json) as the API serves them: loading, ranking, listing items,
// one manifest by name. Shared by routes/services.ts, routes/search.ts and the MCP tools.
import { type CatalogStore, isSafeId } from '../../build/catalog/catalog-store.ts';
import type { ApiManifestLike } from '../../build/search/documents.ts';
import { CATALOG } from '../messages.ts';
import { DomainError } from './errors.ts';
import { type ApiSearch, createApiSearch } from './tool-search.ts';

export interface ApiIntent {
  id: string;
  method: string;
  path: string;
  params?: unknown;
  returns?: unknown;
  description?: string;
}

/** One file of catalog/apis (format owned by the API-manifest compiler). */
export interface ApiRecord {
  service_name: string;
  category: string;
  tags?: string[] | string;
  source_url?: string;
  manifest: {
    service: string;
    base_url: string;
    auth: { type: string; header?: string };
    intents: ApiIntent[];
  };
  trust: { reliability_score: number };
  record?: { verified?: boolean };
}

export interface ApiCatalog {
  count: number;
  byName: Map<string, ApiRecord>;
  /** Empty query: the top by reliability. */
  search(q: string, limit: number): ApiRecord[];
  /**
   * A new catalog with this record added or replaced (an unverified one leaves the listing). The old one
   * keeps its records; the search index is shared and updated in place (rebuilding it takes ~0.5 s).
   */
  with(record: ApiRecord): ApiCatalog;
  /** A new catalog without this service (deleted by another instance; see api/catalog-sync.ts). */
  without(name: string): ApiCatalog;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Enough structure to list and serve a record; the compiler validates the rest. */
export function isApiRecord(v: unknown): v is ApiRecord {
  if (!isObject(v) || typeof v.service_name !== 'string' || !isSafeId(v.service_name)) return false;
  const m = v.manifest;
  const t = v.trust;
  return (
    typeof v.category === 'string' &&
    isObject(m) &&
    typeof m.base_url === 'string' &&
    isObject(m.auth) &&
    typeof m.auth.type === 'string' &&
    Array.isArray(m.intents) &&
    isObject(t) &&
    typeof t.reliability_score === 'number'
  );
}

const tagsOf = (r: ApiRecord) =>
  Array.isArray(r.tags) ? r.tags : typeof r.tags === 'string' ? r.tags.split(/\s+/) : [];
const textOf = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** What the search engine indexes of a record: names, category, tags, intents (id, path, description). */
export function searchableApi(r: ApiRecord): ApiManifestLike {
  return {
    id: r.service_name,
    name: r.manifest.service || r.service_name,
    category: r.category,
    tags: tagsOf(r),
    intents: r.manifest.intents.map((i) => ({
      id: String(i.id ?? ''),
      summary: [textOf(i.description), textOf(i.path)?.replace(/[{}/_-]+/g, ' ')].filter(Boolean).join(' '),
      ...(textOf(i.returns) ? { returns: textOf(i.returns) } : {}),
    })),
    reliability: r.trust.reliability_score,
  };
}

// Unverified manifests are kept out of search and serving until an admin verifies them.
const isListed = (r: ApiRecord) => r.record?.verified !== false;

function catalogOf(byName: Map<string, ApiRecord>, engine: ApiSearch): ApiCatalog {
  return {
    count: byName.size,
    byName,
    search: (q, limit) =>
      engine
        .search(q, limit)
        .map((id) => byName.get(id))
        .filter((r): r is ApiRecord => r !== undefined),
    with(record) {
      const next = new Map(byName);
      if (isListed(record)) {
        next.set(record.service_name, record);
        engine.upsert(searchableApi(record));
      } else {
        next.delete(record.service_name);
        engine.remove(record.service_name);
      }
      return catalogOf(next, engine);
    },
    without(name) {
      const next = new Map(byName);
      next.delete(name);
      engine.remove(name);
      return catalogOf(next, engine);
    },
  };
}

export function apiCatalogOf(records: ApiRecord[]): ApiCatalog {
  const listed = records.filter(isListed);
  return catalogOf(new Map(listed.map((r) => [r.service_name, r])), createApiSearch(listed.map(searchableApi)));
}

export async function loadApiCatalog(store: CatalogStore): Promise<ApiCatalog> {
  const files = await store.readAll('apis').catch(() => []);
  const records: ApiRecord[] = [];
  for (const f of files) {
    if (isApiRecord(f.value) && f.value.service_name === f.id) records.push(f.value);
    else
      console.error(
        `skipped: ${f.file}: ${f.parseError ?? 'not an API manifest record (service_name must equal the file name)'}`,
      );
  }
  return apiCatalogOf(records);
}

export const manifestUrl = (baseUrl: string, name: string) => `${baseUrl}/api/v1/services/${name}/mai-api.json`;

export function apiListingItem(r: ApiRecord, baseUrl: string) {
  return {
    type: 'api' as const,
    service_name: r.service_name,
    category: r.category,
    base_url: r.manifest.base_url,
    auth_type: r.manifest.auth.type,
    intents_count: r.manifest.intents.length,
    manifest_url: manifestUrl(baseUrl, r.service_name),
    trust: { reliability_score: r.trust.reliability_score },
  };
}

/** One compiled manifest by service name, or the 404 (the mai-api.json route and the MCP tool get_api_manifest). */
export function manifestByName(ctx: { apis: ApiCatalog }, name: string): ApiRecord['manifest'] {
  const record = isSafeId(name) ? ctx.apis.byName.get(name) : undefined;
  if (!record) throw new DomainError('not_found', CATALOG.manifestNotFound(name));
  return record.manifest;
}
