// The MCP subregistry: the catalog's MCP-server contracts through the official MCP registry's read API
// (v0.1: GET /v0.1/servers, /v0.1/servers/{name}/versions[/{version}]). One index per catalog snapshot,
// sorted by name and then version (newest first); pages are keyset pages over that order, so a walk with
// nextCursor never repeats or skips an entry, even while writes replace the snapshot.
import semver from 'semver';
import type { Snapshot } from '../../build/catalog/snapshot.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { mcpRegistryName } from '../../build/model/mcp-registry-name.ts';
import type { AppContext } from '../context.ts';
import { SUBREGISTRY } from '../messages.ts';
import { DomainError } from './errors.ts';
import {
  type EntryFacts,
  entryVersion,
  registryStatus,
  type ServerResponse,
  serverResponse,
  updatedAtOf,
} from './mcp-server-json.ts';

export const SUBREGISTRY_LIMIT = { default: 30, maximum: 100 } as const;
export const SEARCH_MAX = 200;
const VERSION_MAX = 255;
const CURSOR_MAX = 1000;

interface Entry extends EntryFacts {
  contract: ToolContract;
  updatedAtMs: number | null;
}

interface RegistryIndex {
  entries: Entry[];
  byName: Map<string, Entry[]>;
}

/** Newest first: valid semver by precedence, then anything else by text; a total order (ties broken by text). */
export function compareVersionsDesc(a: string, b: string): number {
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) {
    const c = semver.rcompare(va, vb);
    if (c !== 0) return c;
  } else if (va) return -1;
  else if (vb) return 1;
  return a < b ? 1 : a > b ? -1 : 0;
}

const compareEntries = (a: { name: string; version: string }, b: { name: string; version: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : compareVersionsDesc(a.version, b.version);

const indexes = new WeakMap<Snapshot, RegistryIndex>();

function buildIndex(snapshot: Snapshot): RegistryIndex {
  const seen = new Set<string>();
  const entries: Entry[] = [];
  // The aid order decides which of two contracts claiming the same name and version is served.
  const servers = snapshot.tools
    .filter((c) => c.identity.kind === 'mcp_server' && c.record?.verified !== false)
    .sort((a, b) => (a.identity.aid < b.identity.aid ? -1 : 1));
  for (const contract of servers) {
    const name = mcpRegistryName(contract);
    const version = entryVersion(contract);
    const key = `${name}\u0000${version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const updatedAt = updatedAtOf(contract);
    entries.push({
      contract,
      name,
      version,
      status: registryStatus(contract),
      updatedAt,
      updatedAtMs: updatedAt ? Date.parse(updatedAt) : null,
      isLatest: false,
    });
  }
  entries.sort(compareEntries);
  const byName = new Map<string, Entry[]>();
  for (const e of entries) {
    const list = byName.get(e.name);
    if (list) list.push(e);
    else byName.set(e.name, [e]);
  }
  // Latest: the newest version that is not deleted (the newest of all when every version is).
  for (const list of byName.values()) {
    const latest = list.find((e) => e.status !== 'deleted') ?? list[0];
    if (latest) latest.isLatest = true;
  }
  return { entries, byName };
}

function indexOf(snapshot: Snapshot): RegistryIndex {
  let index = indexes.get(snapshot);
  if (!index) {
    index = buildIndex(snapshot);
    indexes.set(snapshot, index);
  }
  return index;
}

/** The raw query of GET /v0.1/servers (undefined = absent); validated here so every caller gets the same 400s. */
export interface ServerListQuery {
  cursor?: string;
  limit?: string;
  search?: string;
  updated_since?: string;
  version?: string;
  include_deleted?: string;
}

const bad = (message: string) => new DomainError('bad_request', message);

export const encodeCursor = (e: { name: string; version: string }) =>
  Buffer.from(JSON.stringify([e.name, e.version])).toString('base64url');

function decodeCursor(raw: string): { name: string; version: string } {
  if (raw.length > CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(raw)) throw bad(SUBREGISTRY.badCursor);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw bad(SUBREGISTRY.badCursor);
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'string'))
    throw bad(SUBREGISTRY.badCursor);
  return { name: value[0] as string, version: value[1] as string };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return SUBREGISTRY_LIMIT.default;
  const n = /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(n >= 1 && n <= SUBREGISTRY_LIMIT.maximum)) throw bad(SUBREGISTRY.badLimit(SUBREGISTRY_LIMIT.maximum));
  return n;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function parseSince(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const ms = RFC3339.test(raw) ? Date.parse(raw.replace(' ', 'T')) : Number.NaN;
  if (Number.isNaN(ms)) throw bad(SUBREGISTRY.badUpdatedSince);
  return ms;
}

/** 'latest', or one exact version: printable, no spaces, not a range (the official rule for versions). */
export function parseVersion(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const v = raw.trim();
  if (
    v === '' ||
    v.length > VERSION_MAX ||
    !/^[\x21-\x7e]+$/.test(v) ||
    /^[\^~<>=]/.test(v) ||
    /(^|\.)[xX*](\.|$)/.test(v) ||
    v.includes('||')
  )
    throw bad(SUBREGISTRY.badVersion);
  return v;
}

function parseBool(raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw bad(SUBREGISTRY.badIncludeDeleted);
}

function parseSearch(raw: string | undefined): string {
  if (raw === undefined) return '';
  if (raw.length > SEARCH_MAX) throw bad(SUBREGISTRY.badSearch(SEARCH_MAX));
  return raw.trim().toLowerCase();
}

export interface ServerList {
  servers: ServerResponse[];
  metadata: { nextCursor?: string; count: number };
}

/** First index whose entry sorts after the cursor's (name, version). */
function startAfter(entries: Entry[], cursor: { name: string; version: string }): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareEntries(entries[mid] as Entry, cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** GET /v0.1/servers. Search is a case-insensitive substring of the name, as in the official registry. */
export function listServers(ctx: AppContext, query: ServerListQuery): ServerList {
  const limit = parseLimit(query.limit);
  const cursor = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
  const search = parseSearch(query.search);
  const since = parseSince(query.updated_since);
  const version = parseVersion(query.version);
  // As the official API: deleted entries come with updated_since (a sync must learn of removals).
  const includeDeleted = parseBool(query.include_deleted) || since !== null;
  const { entries } = indexOf(ctx.snapshot);
  const picked: Entry[] = [];
  let more = false;
  for (let i = cursor ? startAfter(entries, cursor) : 0; i < entries.length; i++) {
    const e = entries[i] as Entry;
    if (!includeDeleted && e.status === 'deleted') continue;
    if (search && !e.name.toLowerCase().includes(search)) continue;
    if (since !== null && (e.updatedAtMs === null || e.updatedAtMs < since)) continue;
    if (version !== null && (version === 'latest' ? !e.isLatest : e.version !== version)) continue;
    if (picked.length === limit) {
      more = true;
      break;
    }
    picked.push(e);
  }
  const last = picked.at(-1);
  return {
    servers: picked.map((e) => serverResponse(e.contract, e, ctx.config.baseUrl)),
    metadata: { ...(more && last ? { nextCursor: encodeCursor(last) } : {}), count: picked.length },
  };
}

function versionsOf(ctx: AppContext, name: string, includeDeleted: boolean): Entry[] {
  const list = (indexOf(ctx.snapshot).byName.get(name) ?? []).filter((e) => includeDeleted || e.status !== 'deleted');
  if (list.length === 0) throw new DomainError('not_found', SUBREGISTRY.serverNotFound(name));
  return list;
}

/** GET /v0.1/servers/{serverName}/versions: every version, newest first. */
export function serverVersions(ctx: AppContext, name: string, includeDeletedRaw?: string): ServerList {
  const list = versionsOf(ctx, name, parseBool(includeDeletedRaw));
  return {
    servers: list.map((e) => serverResponse(e.contract, e, ctx.config.baseUrl)),
    metadata: { count: list.length },
  };
}

/** GET /v0.1/servers/{serverName}/versions/{version}; `latest` is the entry marked isLatest. */
export function serverVersion(
  ctx: AppContext,
  name: string,
  version: string,
  includeDeletedRaw?: string,
): ServerResponse {
  const list = versionsOf(ctx, name, parseBool(includeDeletedRaw));
  const entry = version === 'latest' ? list.find((e) => e.isLatest) : list.find((e) => e.version === version);
  if (!entry) throw new DomainError('not_found', SUBREGISTRY.versionNotFound(name, version));
  return serverResponse(entry.contract, entry, ctx.config.baseUrl);
}
