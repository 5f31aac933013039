// Wires one API process into a group of processes sharing one Redis (STORAGE_URL=redis://) and one dist/:
// change notices keep its in-memory catalog current (catalog-sync.ts) and its rebuilds go through the
// shared rebuild lock (rebuild-shared.ts). Without the Redis overlay the process builds alone and watches the
// catalog files for writes of other processes on the machine (catalog-watch.ts: a verification worker).
import type { CatalogStore } from '../../build/catalog/catalog-store.ts';
import { type ChangeFollower, followChanges, reloadRecords } from '../writes/catalog-sync.ts';
import { watchCatalogFiles } from '../writes/catalog-watch.ts';
import type { AppContext } from '../context.ts';
import type { RebuildScheduler, RunResult } from './scheduler.ts';
import { lockTtlMs, type SharedRebuild, sharedRebuild } from './shared.ts';

export interface ScaleOut {
  /** The scheduler's run: the plain build, or the build behind the shared lock. */
  run(aids: string[]): Promise<RunResult>;
  /** Starts following the other processes' changes; asks for the builds a crash or a stop cut short. */
  start(rebuild: RebuildScheduler, staleAids: Promise<string[]>): Promise<void>;
  close(): Promise<void>;
}

export function scaleOut(
  store: CatalogStore,
  ctx: () => AppContext,
  build: (aids: string[]) => Promise<RunResult>,
): ScaleOut {
  const overlay = store.overlay;
  if (!overlay) {
    // Files only: other processes on this machine (a verification worker) write the files; watch them.
    let watcher: ChangeFollower | null = null;
    return {
      run: build,
      async start(rebuild, stale) {
        watcher = watchCatalogFiles(ctx, ctx().config.catalogDir, (aids) => rebuild.request(aids));
        stale.then(
          (aids) => {
            if (aids.length) rebuild.request(aids);
          },
          () => undefined,
        );
      },
      close: async () => {
        await watcher?.close();
      },
    };
  }
  let rebuild: RebuildScheduler | null = null;
  let follower: ChangeFollower | null = null;
  const shared: SharedRebuild = sharedRebuild({
    client: overlay.client(),
    names: overlay.names,
    lockTtlMs: lockTtlMs(),
    reload: (changes) => reloadRecords(ctx(), changes),
    build,
    poke: () => rebuild?.requestApis(),
  });
  return {
    run: shared.run,
    async start(scheduler, stale) {
      rebuild = scheduler;
      follower = await followChanges(ctx(), overlay, (c) => {
        if (c.tools.length) scheduler.request(c.tools);
        if (c.apis.length) scheduler.requestApis();
      });
      // Changes pending in Redis (a builder died, or every process was down) and catalog files newer than
      // dist/ are built by whichever process takes the lock first; the others find nothing left.
      stale
        .then((aids) => shared.markPending(aids))
        .catch(() => undefined)
        .finally(() => scheduler.requestApis());
    },
    async close() {
      shared.close();
      await follower?.close();
    },
  };
}
