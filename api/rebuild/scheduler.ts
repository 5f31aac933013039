// Keeps dist/ following the catalog after admin writes. Single-flight: one build at a time; aids
// requested while it runs are collected and built together by exactly one more build. Incremental: a
// build gets the changed aids, so it re-renders those and links every other tool's files. build() writes
// into a fresh folder and swaps dist/ atomically, so readers see the old site or the new one.
//
// Behind an interface: with several API processes on one Redis, `run` is wrapped in a distributed lock
// (api/rebuild-shared.ts) and answers `skipped` when another process builds or nothing is left to build.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { BUILD_INFO } from '../../build/pipeline/dist-swap.ts';

export interface RebuildStatus {
  /** A build is running now. */
  running: boolean;
  /** Aids waiting for the next build. */
  queued: number;
  /** Builds finished successfully since start. */
  builds: number;
  /** Runs that built nothing here: another process held the rebuild lock, or had already built everything. */
  skipped: number;
  failures: number;
  last: {
    finished_at: string;
    ms: number;
    aids: number;
    incremental: boolean;
    tools_count: number;
    phases?: Record<string, number>;
  } | null;
  last_error: string | null;
}

export interface RebuildScheduler {
  /** Asks for a build that includes these aids' current contracts; returns at once. */
  request(aids: Iterable<string>): void;
  /** Asks for a build with no tool changed: the API manifests and shared pages are rebuilt by every build. */
  requestApis(): void;
  /** Resolves once no build runs and none is due (after a failure: once the retry is scheduled). */
  idle(): Promise<void>;
  status(): RebuildStatus;
  /** Stops scheduling and waits for the build in flight. */
  close(): Promise<void>;
}

export interface RunResult {
  ms: number;
  toolsCount: number;
  incremental: boolean;
  /** Where the build's time went (build() phase timings), shown in the status for operators. */
  phases?: Record<string, number>;
  /** Nothing was built by this process (see RebuildStatus.skipped); not counted as a build. */
  skipped?: boolean;
}

export interface SchedulerOptions {
  /** Builds the site with these aids changed (the scheduler passes each aid to exactly one successful run). */
  run(aids: string[]): Promise<RunResult>;
  /** Wait this long after the first request before building, so a burst becomes one build. */
  debounceMs?: number;
  /** First retry delay after a failed build; doubles up to a minute. */
  retryMs?: number;
  log?: (line: string) => void;
}

export function createRebuildScheduler(options: SchedulerOptions): RebuildScheduler {
  const { run, debounceMs = 25, retryMs = 2_000, log = (l: string) => console.error(l) } = options;
  const pending = new Set<string>();
  // A build is due although no aid is pending (API manifests changed).
  let apisDue = false;
  const due = () => pending.size > 0 || apisDue;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let backoff = 0;
  /** The timer is a retry after a failure (not a debounce): idle() need not wait for it. */
  let retrying = false;
  let closed = false;
  let waiters: (() => void)[] = [];
  const status: RebuildStatus = {
    running: false,
    queued: 0,
    builds: 0,
    skipped: 0,
    failures: 0,
    last: null,
    last_error: null,
  };

  const quiet = () => !running && (timer === null ? !due() || closed : retrying);
  const settle = () => {
    if (!quiet()) return;
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  const schedule = (delay: number, retry = false) => {
    if (closed || running || timer) return;
    retrying = retry;
    timer = setTimeout(() => {
      timer = null;
      retrying = false;
      running = loop();
    }, delay);
    // A pending rebuild must not keep a CLI or test process alive on its own.
    timer.unref?.();
  };

  async function loop(): Promise<void> {
    status.running = true;
    while (due() && !closed) {
      const aids = [...pending];
      pending.clear();
      apisDue = false;
      status.queued = 0;
      try {
        const r = await run(aids);
        backoff = 0;
        if (r.skipped) {
          status.skipped++;
          continue;
        }
        status.builds++;
        status.last = {
          finished_at: new Date().toISOString(),
          ms: r.ms,
          aids: aids.length,
          incremental: r.incremental,
          tools_count: r.toolsCount,
          ...(r.phases ? { phases: r.phases } : {}),
        };
        status.last_error = null;
      } catch (error) {
        // These aids' pages are not built yet: keep them, or a later incremental build would link stale files.
        for (const a of aids) pending.add(a);
        apisDue = true;
        status.failures++;
        status.last_error = (error as Error).message.split('\n')[0]?.slice(0, 500) ?? 'build failed';
        log(`rebuild failed (${aids.length} aid(s) kept for a retry): ${status.last_error}`);
        backoff = Math.min(60_000, backoff ? backoff * 2 : retryMs);
        break;
      }
    }
    status.running = false;
    status.queued = pending.size;
    running = null;
    if (due()) schedule(backoff || debounceMs, backoff > 0);
    settle();
  }

  const scheduler: RebuildScheduler = {
    request(aids) {
      if (closed) return;
      for (const a of aids) pending.add(a);
      status.queued = pending.size;
      // During a build the new aids simply wait: the loop picks them up as one more build.
      if (timer && retrying) {
        // A fresh write after a failure: try again soon rather than after the whole backoff.
        clearTimeout(timer);
        timer = null;
      }
      schedule(debounceMs);
    },
    requestApis() {
      if (closed) return;
      apisDue = true;
      scheduler.request([]);
    },
    idle() {
      if (quiet()) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    status: () => ({ ...status, queued: pending.size }),
    async close() {
      closed = true;
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      if (running) await running;
      settle();
    },
  };
  return scheduler;
}

/**
 * Aids whose catalog file changed after the build dist/ serves began: writes whose rebuild a crash or a
 * stop cut short. Requested once at start so the site catches up. That build began build_ms before it
 * wrote build-info.json. A live (incremental) rebuild took its snapshot a little earlier still, while the
 * snapshot travelled to the worker: a margin covers that; a full build reads the catalog after it began.
 * A file counted twice is only re-rendered; one missed would stay stale until its next write.
 */
export async function staleAids(catalogDir: string, distDir: string, handoffMarginMs = 10_000): Promise<string[]> {
  const file = path.join(distDir, BUILD_INFO);
  const [text, stat] = await Promise.all([
    fsp.readFile(file, 'utf8').catch(() => null),
    fsp.stat(file).catch(() => null),
  ]);
  if (!text || !stat) return [];
  const info = JSON.parse(text) as { build_ms?: unknown; incremental?: unknown };
  const buildMs = Number(info.build_ms);
  const since =
    stat.mtimeMs - (Number.isFinite(buildMs) ? buildMs : 0) - (info.incremental === true ? handoffMarginMs : 0);
  const dir = path.join(catalogDir, 'tools');
  const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter(
    (n) => n.endsWith('.json') && !n.startsWith('.'),
  );
  const out: string[] = [];
  for (const n of names) {
    const s = await fsp.stat(path.join(dir, n)).catch(() => null);
    if (s && s.mtimeMs > since) out.push(n.slice(0, -'.json'.length));
  }
  return out;
}
