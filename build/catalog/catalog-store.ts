// The one way code reads and writes contract files. It sits on an unstorage mount: the atomic fs driver
// over CATALOG_DIR, or with STORAGE_URL=redis:// (catalogStoreFor) an overlay whose writes live in Redis
// over those files (build/storage/overlay-driver.ts, redis-overlay.ts). Callers see the same interface.
import { createStorage, type Driver, type Storage } from 'unstorage';
import { atomicFsDriver } from './storage/atomic-fs-driver.ts';
import { overlayDriver } from './storage/overlay-driver.ts';
import { type CatalogOverlay, redisOverlay } from './storage/redis-overlay.ts';

export type RecordKind = 'tools' | 'apis';

export interface StoredFile {
  /** Id from the file name (`npm-axios-v1` for `tools/npm-axios-v1.json`). */
  id: string;
  /** Path relative to the catalog folder, for messages (`catalog/tools/npm-axios-v1.json`). */
  file: string;
  /** Parsed JSON, or undefined when the text is not JSON (then `parseError` says why). */
  value?: unknown;
  parseError?: string;
}

export interface CatalogStore {
  readonly storage: Storage;
  /** Ids of one kind, sorted. */
  list(kind: RecordKind): Promise<string[]>;
  read(kind: RecordKind, id: string): Promise<StoredFile | null>;
  readAll(kind: RecordKind): Promise<StoredFile[]>;
  /** Writes the record as pretty JSON; answers whether it was new. */
  write(kind: RecordKind, id: string, value: unknown): Promise<{ created: boolean }>;
  remove(kind: RecordKind, id: string): Promise<void>;
  /** The gzipped operation recipes of one API (`apis/operations/<service_name>.json.gz`), or null. */
  readOperations(serviceName: string): Promise<Buffer | null>;
  /** Writes them; call before writing the manifest, whose write announces the change. */
  writeOperations(serviceName: string, gzipped: Uint8Array): Promise<void>;
  /** Present when writes go to Redis over the files (catalogStoreFor with a STORAGE_URL). */
  readonly overlay?: CatalogOverlay;
}

const key = (kind: RecordKind, id: string) => `${kind}:${id}.json`;
/** Beside the manifests, in their own folder: `apis:` listings keep only `apis:<name>.json` keys. */
export const operationsKey = (serviceName: string) => `apis:operations:${serviceName}.json.gz`;
const OPERATIONS_KEY = /^apis:operations:([^:]+)\.json\.gz$/;

/** The service name of an operations key (`apis:operations:<name>.json.gz`), or null for any other key. */
export function operationsKeyName(key: string): string | null {
  const name = OPERATIONS_KEY.exec(key)?.[1];
  return name && isSafeId(name) ? name : null;
}
/** Ids come from URLs: allow only what a file name in the catalog can be, before any storage access. */
const SAFE_ID = /^[a-z0-9][a-z0-9._-]{0,200}$/;

export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id) && !id.includes('..');
}

function parse(id: string, file: string, raw: Uint8Array | string): StoredFile {
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
  try {
    return { id, file, value: JSON.parse(text) };
  } catch (error) {
    return { id, file, parseError: `not valid JSON (${(error as Error).message})` };
  }
}

export function createCatalogStore(options: { dir: string; label?: string; driver?: Driver }): CatalogStore {
  const storage = createStorage({ driver: options.driver ?? atomicFsDriver({ base: options.dir }) });
  const label = options.label ?? 'catalog';
  const fileOf = (kind: RecordKind, id: string) => `${label}/${kind}/${id}.json`;

  async function list(kind: RecordKind): Promise<string[]> {
    const keys = await storage.getKeys(`${kind}:`);
    return keys
      .filter((k) => k.endsWith('.json') && k.split(':').length === 2)
      .map((k) => k.slice(kind.length + 1, -'.json'.length))
      .sort();
  }

  async function readKey(kind: RecordKind, id: string): Promise<StoredFile | null> {
    const raw = await storage.getItemRaw<Uint8Array | string>(key(kind, id));
    return raw == null ? null : parse(id, fileOf(kind, id), raw);
  }

  const read = (kind: RecordKind, id: string) => (isSafeId(id) ? readKey(kind, id) : Promise.resolve(null));

  return {
    storage,
    list,
    read,
    async readAll(kind) {
      const ids = await list(kind);
      const out: StoredFile[] = new Array(ids.length);
      // Bounded concurrency: 100,000 parallel reads would exhaust file descriptors.
      let next = 0;
      const worker = async () => {
        while (next < ids.length) {
          const i = next++;
          const id = ids[i] as string;
          out[i] = (await readKey(kind, id)) ?? { id, file: fileOf(kind, id), parseError: 'vanished while reading' };
        }
      };
      await Promise.all(Array.from({ length: 64 }, worker));
      return out;
    },
    async write(kind, id, value) {
      if (!isSafeId(id)) throw new Error(`unsafe id ${JSON.stringify(id)}`);
      const existed = await storage.hasItem(key(kind, id));
      await storage.setItemRaw(key(kind, id), `${JSON.stringify(value, null, 2)}\n`);
      return { created: !existed };
    },
    async remove(kind, id) {
      if (!isSafeId(id)) return;
      await storage.removeItem(key(kind, id));
    },
    async readOperations(serviceName) {
      if (!isSafeId(serviceName)) return null;
      const raw = await storage.getItemRaw<Uint8Array | string>(operationsKey(serviceName));
      return raw == null ? null : Buffer.from(raw as Uint8Array);
    },
    async writeOperations(serviceName, gzipped) {
      if (!isSafeId(serviceName)) throw new Error(`unsafe id ${JSON.stringify(serviceName)}`);
      await storage.setItemRaw(operationsKey(serviceName), gzipped);
    },
  };
}

/**
 * The catalog as this configuration serves it: the files alone, or with STORAGE_URL=redis:// the files
 * under the Redis overlay, where every write (and deletion, as a tombstone) goes and is announced to the
 * other instances. Release it with `store.storage.dispose()`.
 */
export function catalogStoreFor(
  config: { catalogDir: string; storageUrl?: string | undefined },
  options: { label?: string; redisPrefix?: string } = {},
): CatalogStore {
  const { catalogDir: dir, storageUrl } = config;
  const label = options.label === undefined ? {} : { label: options.label };
  // loadConfig has checked the scheme (StorageUrlError): any STORAGE_URL here is a Redis URL.
  if (!storageUrl) return createCatalogStore({ dir, ...label });
  const overlay = redisOverlay(storageUrl, options.redisPrefix);
  const store = createCatalogStore({
    dir,
    ...label,
    driver: overlayDriver({ top: overlay.driver, base: atomicFsDriver({ base: dir }) }),
  });
  return {
    ...store,
    overlay,
    async write(kind, id, value) {
      const r = await store.write(kind, id, value);
      await overlay.changed(kind, id);
      return r;
    },
    async remove(kind, id) {
      if (!isSafeId(id)) return;
      await store.remove(kind, id);
      await overlay.changed(kind, id);
    },
  };
}
