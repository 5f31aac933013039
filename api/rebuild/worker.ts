// Runs build() on a long-lived worker thread, so a rebuild (Eleventy rendering, linking 20,000 files,
// pruning the old build) never blocks the API's event loop: writes and reads stay fast while the static
// site catches up. One build at a time; the scheduler (rebuild.ts) decides when.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { build } from '../../build/pipeline/build.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { snapshotOf } from '../../build/catalog/snapshot.ts';

export interface BuildTarget {
  catalogDir: string;
  distDir: string;
  baseUrl: string;
  apiOrigin?: string;
  /** STORAGE_URL: the build reads API manifests through the same Redis overlay as the server. */
  storageUrl?: string;
}

export interface BuildSummary {
  ms: number;
  toolsCount: number;
  incremental: boolean;
  phases: Record<string, number>;
}

interface Job {
  id: number;
  tools: ToolContract[];
  changedAids: string[] | null;
  sentAt: number;
}
type Reply = { id: number; ok: true; result: BuildSummary } | { id: number; ok: false; error: string };

const ROLE = 'catalog-rebuild';

export interface WorkerBuilder {
  /** Builds dist/ from exactly these tools; `changedAids` null = full build. */
  run(tools: ToolContract[], changedAids: string[] | null): Promise<BuildSummary>;
  /** Starts the thread now (it loads the build modules), so the first write's rebuild does not wait for that. */
  warm(): void;
  close(): Promise<void>;
}

export function workerBuilder(target: BuildTarget): WorkerBuilder {
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve(r: BuildSummary): void; reject(e: Error): void }>();
  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  const start = () => {
    const w = new Worker(new URL('./worker.ts', import.meta.url), { workerData: { role: ROLE, target } });
    w.on('message', (m: Reply) => {
      const entry = waiting.get(m.id);
      if (!entry) return;
      waiting.delete(m.id);
      if (m.ok) entry.resolve(m.result);
      else entry.reject(new Error(m.error));
      if (waiting.size === 0) w.unref();
    });
    w.on('error', (e) => {
      worker = null;
      failAll(e);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(new Error(`rebuild worker exited with ${code}`));
    });
    return w;
  };
  return {
    run(tools, changedAids) {
      worker ??= start();
      // Referenced while a build runs, so the process waits for it.
      worker.ref();
      const id = nextId++;
      const now = () => performance.timeOrigin + performance.now();
      const t0 = now();
      let clone = 0;
      return new Promise((resolve, reject) => {
        waiting.set(id, {
          // Time outside build(), seen from this thread: copying the snapshot over (clone), and in all (wall).
          resolve: (r) => resolve({ ...r, phases: { ...r.phases, clone, wall: Math.round(now() - t0) } }),
          reject,
        });
        worker?.postMessage({ id, tools, changedAids, sentAt: t0 } satisfies Job);
        clone = Math.round(now() - t0);
      });
    },
    warm() {
      worker ??= start();
      // An idle warm worker must not keep a process alive on its own.
      worker.unref();
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}

if (!isMainThread && parentPort && (workerData as { role?: string } | null)?.role === ROLE) {
  const port = parentPort;
  const target = (workerData as { target: BuildTarget }).target;
  // Jobs arrive one at a time (the scheduler is single-flight); a queue keeps that true regardless.
  let chain = Promise.resolve();
  port.on('message', (job: Job) => {
    chain = chain.then(async () => {
      try {
        const handoff = Math.round(performance.timeOrigin + performance.now() - job.sentAt);
        const r = await build({
          ...target,
          snapshot: snapshotOf(job.tools),
          ...(job.changedAids ? { changedAids: job.changedAids } : {}),
        });
        port.postMessage({
          id: job.id,
          ok: true,
          result: { ms: r.ms, toolsCount: r.toolsCount, incremental: r.incremental, phases: { ...r.phases, handoff } },
        } satisfies Reply);
      } catch (error) {
        port.postMessage({ id: job.id, ok: false, error: (error as Error).stack ?? String(error) } satisfies Reply);
      }
    });
  });
}
