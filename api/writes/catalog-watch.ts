// One API process over catalog files (no STORAGE_URL): another process on this machine may write a contract
// file, above all `npm run verify:worker` storing record.verification. The process watches catalog/tools
// and reloads each contract file whose content now differs from what it serves, then asks for a rebuild, as
// a write of its own would. Its own writes change the file and the snapshot together, so they compare equal
// and cost one read. (Under Redis the same job is done by change notices: catalog-sync.ts.)
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { isSafeId } from '../../build/catalog/catalog-store.ts';
import type { AppContext } from '../context.ts';
import { type ChangeFollower, reloadRecords } from './catalog-sync.ts';

type WatchContext = Pick<AppContext, 'store' | 'snapshot' | 'toolSearch' | 'apis'>;

/** Collects events this long, so a burst of writes (a worker storing many outcomes) is one reload. */
const SETTLE_MS = 100;

export function watchCatalogFiles(
  ctx: () => WatchContext,
  catalogDir: string,
  wake: (aids: string[]) => void,
): ChangeFollower {
  const touched = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const flush = async () => {
    const c = ctx();
    const aids = [...touched];
    touched.clear();
    const changed: string[] = [];
    for (const aid of aids) {
      const file = await c.store.read('tools', aid);
      if (JSON.stringify(file?.value) !== JSON.stringify(c.snapshot.byAid.get(aid))) changed.push(aid);
    }
    if (!changed.length) return;
    await reloadRecords(c, { tools: changed, apis: [] });
    wake(changed);
  };

  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(path.join(catalogDir, 'tools'), (_type, name) => {
      const m = typeof name === 'string' ? /^(.+)\.json$/.exec(name) : null;
      if (!m || !isSafeId(m[1] as string)) return; // temp files of atomic writes, editor swap files
      touched.add(m[1] as string);
      timer ??= setTimeout(() => {
        timer = null;
        running = running.then(flush).catch((error: Error) => console.error(`catalog watch: ${error.message}`));
      }, SETTLE_MS);
    });
    watcher.on('error', (error) => console.error(`catalog watch stopped: ${error.message}`));
  } catch (error) {
    console.error(`catalog watch unavailable (${(error as Error).message}): restart the server to see outside writes`);
  }
  return {
    async close() {
      if (timer) clearTimeout(timer);
      watcher?.close();
      await running;
    },
  };
}
