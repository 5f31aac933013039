// The Redis side of the catalog overlay (STORAGE_URL=redis://): admin writes are kept in Redis over the git
// catalog files, so every API instance on that Redis serves them and the repository stays untouched until
// `npm run export`. Each write also leaves two traces, in one MULTI so neither exists without the other:
//   - a field in the pending hash (`tools:<aid>` → a unique token): changes no build has included yet.
//     The instance holding the rebuild lock builds them and deletes exactly the tokens it saw, so a
//     record written again during that build stays pending. It survives crashes of any instance.
//   - a notice on the changes channel, so every other instance reloads those records at once.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Redis } from 'ioredis';
import type { Driver } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import type { RecordKind } from '../catalog-store.ts';
import { redactUrl, StorageUrlError } from '../../config.ts';

/** Redis names derived from one prefix (`tcc:` by default, shared with the runtime state). */
export interface OverlayNames {
  /** unstorage base of the records: `tcc:catalog:tools:<aid>.json`. */
  base: string;
  channel: string;
  pending: string;
  lock: string;
  /** Held by the instance writing the catalog (api/write-lock.ts); outside `base`, so never a record. */
  writeLock: string;
}

export const overlayNames = (prefix = 'tcc:'): OverlayNames => ({
  base: `${prefix}catalog`,
  channel: `${prefix}catalog-changes`,
  pending: `${prefix}rebuild:pending`,
  lock: `${prefix}rebuild:lock`,
  writeLock: `${prefix}catalog-write:lock`,
});

export interface ChangeNotice {
  /** The writing store (see CatalogOverlay.source): an instance skips its own notices. */
  source: string;
  tools: string[];
  apis: string[];
}

export interface CatalogOverlay {
  /** The unstorage redis driver holding the records (the top layer). */
  driver: Driver;
  client(): Redis;
  names: OverlayNames;
  /** host:pid:random, unique per store. */
  source: string;
  /** Resolves once Redis answers; otherwise a one-line message naming the URL without its password. */
  ready(): Promise<void>;
  /** Marks the record pending and tells the other instances; concurrent calls share one round trip. */
  changed(kind: RecordKind, id: string): Promise<void>;
}

export const pendingField = (kind: RecordKind, id: string) => `${kind}:${id}`;

/** `tools:<aid>` → { kind, id }; other fields are not records. */
export function parsePendingField(field: string): { kind: RecordKind; id: string } | null {
  const i = field.indexOf(':');
  const kind = field.slice(0, i);
  return kind === 'tools' || kind === 'apis' ? { kind, id: field.slice(i + 1) } : null;
}

export function redisOverlay(url: string, prefix = 'tcc:'): CatalogOverlay {
  const names = overlayNames(prefix);
  const driver = redisDriver({
    url,
    base: names.base,
    // As the runtime state's connection: a dead Redis fails a request within seconds instead of queueing it.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    commandTimeout: 10_000,
    lazyConnect: true,
    // SCAN walks the whole keyspace (telemetry keys too): large pages keep a listing to a few round trips.
    scanCount: 1_000,
  });
  const client = () => driver.getInstance?.() as Redis;
  let lastLog = 0;
  let connected = false;
  let lastError: Error | null = null;
  // Without a listener ioredis prints every reconnect attempt as an unhandled error. Before the first
  // connection ready() (or the failing command) reports the problem itself.
  client().on('ready', () => {
    connected = true;
  });
  client().on('error', (error: Error) => {
    lastError = error;
    if (!connected || Date.now() - lastLog < 10_000) return;
    lastLog = Date.now();
    console.error(`redis (catalog): ${error.message}`);
  });
  const source = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let seq = 0;

  async function publish(fields: Set<string>): Promise<void> {
    const token = `${source}:${++seq}`;
    const notice: ChangeNotice = { source, tools: [], apis: [] };
    for (const f of fields) {
      const r = parsePendingField(f);
      if (r) notice[r.kind].push(r.id);
    }
    const results = await client()
      .multi()
      .hset(names.pending, ...[...fields].flatMap((f) => [f, token]))
      .publish(names.channel, JSON.stringify(notice))
      .exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) throw failed;
  }

  // Writes arriving while a notice is being published wait for it and go out together in the next one.
  let batch: { fields: Set<string>; done: Promise<void> } | null = null;
  let tail: Promise<void> = Promise.resolve();
  return {
    driver,
    client,
    names,
    source,
    async ready() {
      try {
        // Connect explicitly: a refused connection then fails with its own reason, not a retry count.
        if (client().status === 'wait') await client().connect();
        await client().ping();
      } catch (error) {
        // The connection's own error (ECONNREFUSED, auth) says more than the command's "Connection is closed".
        throw new StorageUrlError(
          `cannot reach Redis at ${redactUrl(url)}: ${(lastError ?? (error as Error)).message}`,
        );
      }
    },
    changed(kind, id) {
      if (!batch) {
        const fields = new Set<string>();
        const b = {
          fields,
          done: tail
            .then(() => new Promise<void>((r) => setImmediate(r)))
            .then(() => {
              if (batch === b) batch = null;
              return publish(fields);
            }),
        };
        batch = b;
        tail = b.done.catch(() => undefined);
      }
      batch.fields.add(pendingField(kind, id));
      return batch.done;
    },
  };
}
