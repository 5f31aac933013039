// Several API processes on one Redis: a write on one of them is announced on the changes channel
// (build/storage/redis-overlay.ts); every other one reloads the changed records from the shared store into
// its snapshot, tool search and API catalog at once, then wakes its rebuild scheduler (the rebuild lock
// decides who builds). Records are re-read rather than carried in the notice, so whatever order notices
// arrive in, each process ends on what the store holds now. Reloads run inside the write lock, so a local
// write and a reload of the same record never interleave.
//
// Pub/sub delivers nothing to a disconnected subscriber: after a reconnect the whole catalog is compared
// with the store once, so a notice missed during an outage is never missed for good.
import type { Redis } from 'ioredis';
import type { StoredFile } from '../../build/catalog/catalog-store.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import type { ChangeNotice, CatalogOverlay } from '../../build/catalog/storage/redis-overlay.ts';
import { snapshotOf } from '../../build/catalog/snapshot.ts';
import { checkToolFiles } from '../../build/catalog/validate-catalog.ts';
import type { AppContext } from '../context.ts';
import type { Changes } from '../rebuild/shared.ts';
import { isApiRecord } from '../services/apis.ts';
import { withWriteLock } from './write-lock.ts';

type SyncContext = Pick<AppContext, 'store' | 'snapshot' | 'toolSearch' | 'apis'>;
type ToolsContext = Pick<AppContext, 'store' | 'snapshot'> & {
  toolSearch: Pick<AppContext['toolSearch'], 'upsert' | 'remove'>;
};

/**
 * The one way the in-memory catalog changes: each given tool is set (a contract) or dropped (null), the
 * load errors of those files are replaced by `errors` (a file now valid, or gone, no longer counts as one),
 * and a new snapshot replaces the old; tool search follows. Catalog writes and reloads both end here.
 */
export function replaceTools(
  ctx: Pick<ToolsContext, 'snapshot' | 'toolSearch'>,
  tools: ReadonlyMap<string, ToolContract | null>,
  errors: readonly string[] = [],
): void {
  if (tools.size === 0) return;
  const byAid = new Map(ctx.snapshot.byAid);
  const marks = [...tools.keys()].map((aid) => `tools/${aid}.json: `);
  const kept = ctx.snapshot.errors.filter((e) => !marks.some((m) => e.includes(m)));
  for (const [aid, contract] of tools) {
    if (contract) {
      byAid.set(aid, contract);
      ctx.toolSearch.upsert(contract);
    } else {
      byAid.delete(aid);
      ctx.toolSearch.remove(aid);
    }
  }
  ctx.snapshot = snapshotOf([...byAid.values()], [...kept, ...errors]);
}

function applyTools(ctx: ToolsContext, files: Map<string, StoredFile | null>): void {
  const tools = new Map<string, ToolContract | null>();
  const errors: string[] = [];
  for (const [aid, file] of files) {
    const check = file ? checkToolFiles([file]) : { valid: [] as ToolContract[], errors: [] };
    errors.push(...check.errors);
    for (const e of check.errors) console.error(`skipped: ${e}`);
    tools.set(aid, check.valid[0] ?? null);
  }
  replaceTools(ctx, tools, errors);
}

function applyApis(ctx: Pick<AppContext, 'apis'>, files: Map<string, StoredFile | null>): void {
  for (const [name, file] of files) {
    const v = file?.value;
    if (isApiRecord(v) && v.service_name === name) ctx.apis = ctx.apis.with(v);
    else {
      if (file) console.error(`skipped: ${file.file}: ${file.parseError ?? 'not an API manifest record'}`);
      ctx.apis = ctx.apis.without(name);
    }
  }
}

const readMany = async (ctx: Pick<AppContext, 'store'>, kind: 'tools' | 'apis', ids: string[]) =>
  new Map(await Promise.all(ids.map(async (id) => [id, await ctx.store.read(kind, id)] as const)));

/** Re-reads these tools from the store into the in-memory catalog (absent = deleted). Hold the write lock. */
export async function refreshTools(ctx: ToolsContext, aids: string[]): Promise<void> {
  applyTools(ctx, await readMany(ctx, 'tools', aids));
}

/** Re-reads these API manifests from the store into the live API catalog. Hold the write lock. */
export async function refreshApis(ctx: Pick<AppContext, 'store' | 'apis'>, names: string[]): Promise<void> {
  applyApis(ctx, await readMany(ctx, 'apis', names));
}

/** Re-reads these records from the store into the in-memory catalog (absent = deleted). */
export function reloadRecords(ctx: SyncContext, changes: Changes): Promise<void> {
  return withWriteLock(ctx, async () => {
    await Promise.all([refreshTools(ctx, changes.tools), refreshApis(ctx, changes.apis)]);
  });
}

/** Every record whose stored form differs from what this process serves (after missed notices). */
export async function changedSinceLoad(ctx: SyncContext): Promise<Changes> {
  const differs = async (kind: 'tools' | 'apis', served: Map<string, unknown>) => {
    const stored = await ctx.store.readAll(kind);
    const out = stored.filter((f) => JSON.stringify(f.value) !== JSON.stringify(served.get(f.id))).map((f) => f.id);
    const present = new Set(stored.map((f) => f.id));
    return [...out, ...[...served.keys()].filter((id) => !present.has(id))];
  };
  const [tools, apis] = await Promise.all([differs('tools', ctx.snapshot.byAid), differs('apis', ctx.apis.byName)]);
  return { tools, apis };
}

export interface ChangeFollower {
  close(): Promise<void>;
}

/** Subscribes to the changes channel; `wake` asks this process's scheduler for a (locked) rebuild. */
export async function followChanges(
  ctx: SyncContext,
  overlay: CatalogOverlay,
  wake: (changes: Changes) => void,
): Promise<ChangeFollower> {
  const sub: Redis = overlay.client().duplicate();
  sub.on('error', () => undefined); // reported by the main connection; the subscriber reconnects by itself
  const apply = (changes: Changes) =>
    reloadRecords(ctx, changes).then(
      () => wake(changes),
      (error: Error) => {
        console.error(
          `catalog sync: cannot reload ${changes.tools.length + changes.apis.length} record(s): ${error.message}`,
        );
      },
    );
  sub.on('message', (_channel: string, text: string) => {
    let notice: ChangeNotice;
    try {
      notice = JSON.parse(text) as ChangeNotice;
    } catch {
      return;
    }
    if (notice.source === overlay.source || !Array.isArray(notice.tools) || !Array.isArray(notice.apis)) return;
    void apply({
      tools: notice.tools.filter((s) => typeof s === 'string'),
      apis: notice.apis.filter((s) => typeof s === 'string'),
    });
  });
  let connected = false;
  sub.on('ready', () => {
    if (!connected) {
      connected = true;
      return;
    }
    // A reconnect: notices sent meanwhile are lost; compare everything once.
    changedSinceLoad(ctx).then(
      (c) => (c.tools.length || c.apis.length ? apply(c) : undefined),
      () => undefined,
    );
  });
  await sub.subscribe(overlay.names.channel);
  return {
    async close() {
      await sub.quit().catch(() => sub.disconnect());
    },
  };
}
