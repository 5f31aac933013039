// What the two web-API pages show (/llmo-apis for agents, /mai-api for people), prepared in code so the
// templates stay thin. Every string taken from a manifest is untrusted; the templates escape it.
import { API_CATEGORIES, type ApiManifest } from '../apis/manifest.ts';
import { manifestPath } from '../discovery/api-static.ts';
import { median } from '../bench/stats.ts';

export const LLMO_APIS_PATH = '/llmo-apis';
export const MAI_API_PATH = '/mai-api';
/** Both pages, as linked and as listed in the sitemap (served without a trailing slash). */
export const API_PAGE_PATHS = [LLMO_APIS_PATH, MAI_API_PATH] as const;

/** Where the definitions come from, and on what terms (stated on /mai-api). */
export const API_SOURCE = {
  name: 'APIs.guru OpenAPI Directory',
  url: 'https://apis.guru',
  repository: 'https://github.com/APIs-guru/openapi-directory',
  licence: 'CC0 1.0',
  licenceUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
} as const;

export interface ApiPageEntry {
  serviceName: string;
  title: string;
  baseUrl: string;
  /** base_url without the scheme, for a compact column. */
  host: string;
  auth: string;
  /** The auth type in words (`API key`, `OAuth 2`). */
  authLabel: string;
  intents: number;
  manifestHref: string;
}
export interface ApiCategoryGroup {
  id: string;
  label: string;
  entries: ApiPageEntry[];
}
export interface ApiTokenFigures {
  medianDefinition: number;
  medianManifest: number;
  ratio: number;
}
export interface ApiPagesData {
  total: number;
  groups: ApiCategoryGroup[];
  llmoCanonical: string;
  landingCanonical: string;
  tokens: ApiTokenFigures | null;
  source: typeof API_SOURCE;
}

const LABELS: Readonly<Record<string, string>> = { ai: 'AI', developer_tools: 'Developer tools' };
export const categoryLabel = (id: string) =>
  LABELS[id] ?? (id.charAt(0).toUpperCase() + id.slice(1)).replace(/_/g, ' ');

const AUTH_LABELS: Readonly<Record<string, string>> = {
  apikey: 'API key',
  bearer: 'Bearer token',
  basic: 'Basic',
  oauth2: 'OAuth 2',
  sigv4: 'AWS SigV4',
  none: 'None',
};

function tokenFigures(apis: ApiManifest[]): ApiTokenFigures | null {
  const definitions = apis.map((m) => m.record.tokens.definition);
  const manifests = apis.map((m) => m.record.tokens.manifest);
  const total = manifests.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const ratio = definitions.reduce((a, b) => a + b, 0) / total;
  return {
    medianDefinition: median(definitions),
    medianManifest: median(manifests),
    ratio: Math.round(ratio * 10) / 10,
  };
}

function entryOf(m: ApiManifest): ApiPageEntry {
  return {
    serviceName: m.service_name,
    title: m.manifest.service,
    baseUrl: m.manifest.base_url,
    host: m.manifest.base_url.replace(/^https?:\/\//, ''),
    auth: m.manifest.auth.type,
    authLabel: AUTH_LABELS[m.manifest.auth.type] ?? m.manifest.auth.type,
    intents: m.manifest.intents.length,
    manifestHref: manifestPath(m.service_name),
  };
}

const byTitle = (a: ApiPageEntry, b: ApiPageEntry) =>
  a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || (a.serviceName < b.serviceName ? -1 : 1);

/** `apis` are the served manifests; categories in the fixed order, entries by title. */
export function apiPagesData(apis: ApiManifest[], baseUrl: string): ApiPagesData {
  const order = new Map<string, number>(API_CATEGORIES.map((c, i) => [c, i]));
  const groups = new Map<string, ApiPageEntry[]>();
  for (const m of apis) {
    const list = groups.get(m.category);
    if (list) list.push(entryOf(m));
    else groups.set(m.category, [entryOf(m)]);
  }
  const ids = [...groups.keys()].sort((a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99) || (a < b ? -1 : 1));
  return {
    total: apis.length,
    groups: ids.map((id) => ({ id, label: categoryLabel(id), entries: (groups.get(id) ?? []).sort(byTitle) })),
    llmoCanonical: `${baseUrl}${LLMO_APIS_PATH}`,
    landingCanonical: `${baseUrl}${MAI_API_PATH}`,
    tokens: tokenFigures(apis),
    source: API_SOURCE,
  };
}
