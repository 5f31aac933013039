// The verification queue in one JSON-lines file under DATA_DIR, for one worker on the machine that also runs
// the server (no STORAGE_URL). The file is an event log (job queued, ticket, attempt started, done, retry,
// failed) that every call replays, so the server (enqueue, status) and the worker process (work) share it
// without a daemon. Appends are whole lines written at once, so a crash loses at most the line being
// written; a torn line is skipped. A second worker on the same file is refused (a pid lock file): several
// workers need the Redis queue.
import { watch as watchDir, promises as fsp, type FSWatcher } from 'node:fs';
import path from 'node:path';
import {
  MAX_ATTEMPTS,
  newTicket,
  summarize,
  type TicketJob,
  type VerifyHandler,
  type VerifyJob,
  type VerifyJobOutcome,
  type VerifyQueue,
  type VerifyReason,
  type VerifyWorkOptions,
} from './types.ts';

type Event =
  | ({ e: 'job'; id: string } & VerifyJob)
  | { e: 'ticket'; ticket: string; reason: VerifyReason; created_at: string; jobs: [string, string][] }
  | { e: 'start'; id: string; attempt: number; at: string }
  | { e: 'done'; id: string; outcome: VerifyJobOutcome }
  | { e: 'retry'; id: string; error: string }
  | { e: 'fail'; id: string; error: string };

interface JobRecord extends VerifyJob {
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  outcome?: VerifyJobOutcome;
  error?: string;
}

interface State {
  jobs: Map<string, JobRecord>;
  tickets: Map<string, Extract<Event, { e: 'ticket' }>>;
  /** The queued job of each aid (an aid is queued at most once). */
  waiting: Map<string, string>;
}

function replay(text: string): State {
  const state: State = { jobs: new Map(), tickets: new Map(), waiting: new Map() };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let ev: Event;
    try {
      ev = JSON.parse(line) as Event;
    } catch {
      continue; // a torn last line from a crash: skip it rather than lose the queue
    }
    if (ev.e === 'ticket') {
      state.tickets.set(ev.ticket, ev);
      continue;
    }
    if (ev.e === 'job') {
      const { e: _e, ...job } = ev;
      state.jobs.set(ev.id, { ...job, state: 'queued', attempts: 0 });
      state.waiting.set(ev.aid, ev.id);
      continue;
    }
    const job = state.jobs.get(ev.id);
    if (!job) continue;
    if (ev.e === 'start') {
      job.state = 'running';
      job.attempts = ev.attempt;
      if (state.waiting.get(job.aid) === job.id) state.waiting.delete(job.aid);
    } else if (ev.e === 'done') {
      job.state = 'done';
      job.outcome = ev.outcome;
    } else if (ev.e === 'retry') {
      job.state = 'queued';
      job.error = ev.error;
    } else {
      job.state = 'failed';
      job.error = ev.error;
    }
  }
  return state;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function createFileVerifyQueue(dataDir: string): VerifyQueue {
  const file = path.join(dataDir, 'verify-queue.jsonl');
  const lockFile = path.join(dataDir, 'verify-worker.lock');

  const read = async (): Promise<State> =>
    replay(
      await fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return '';
        throw e;
      }),
    );
  const append = async (events: Event[]) => {
    if (!events.length) return;
    await fsp.mkdir(dataDir, { recursive: true });
    await fsp.appendFile(file, events.map((ev) => `${JSON.stringify(ev)}\n`).join(''));
  };
  // Read-then-append steps of this process run one at a time (another process appends only its own lines).
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  async function takeWorkerLock(): Promise<void> {
    await fsp.mkdir(dataDir, { recursive: true });
    for (;;) {
      try {
        await fsp.writeFile(lockFile, String(process.pid), { flag: 'wx' });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = Number(await fsp.readFile(lockFile, 'utf8').catch(() => '0'));
      if (holder && holder !== process.pid && alive(holder))
        throw new Error(
          `another verification worker (pid ${holder}) uses ${file}; the file queue has one worker (STORAGE_URL=redis:// for several)`,
        );
      await fsp.rm(lockFile, { force: true });
    }
  }

  return {
    async pending() {
      const { jobs } = await read();
      return [...jobs.values()]
        .filter((j) => j.state === 'queued')
        .map(({ aid, reason, queued_at }) => ({ aid, reason, queued_at }));
    },

    enqueue(aids, reason) {
      return serial(async () => {
        const { waiting } = await read();
        const queued_at = new Date().toISOString();
        const ticket = newTicket();
        const events: Event[] = [];
        const jobs: [string, string][] = [];
        for (const aid of new Set(aids)) {
          let id = waiting.get(aid);
          if (!id) {
            id = `${ticket}.${jobs.length}`;
            events.push({ e: 'job', id, aid, reason, queued_at });
          }
          jobs.push([aid, id]);
        }
        events.push({ e: 'ticket', ticket, reason, created_at: queued_at, jobs });
        await append(events);
        return { ticket, queued: events.length - 1 };
      });
    },

    async status(ticket) {
      const state = await read();
      const t = state.tickets.get(ticket);
      if (!t) return null;
      const jobs: TicketJob[] = t.jobs.map(([aid, id]) => {
        const j = state.jobs.get(id);
        if (!j) return { aid, state: 'unknown', attempts: 0 };
        return {
          aid,
          state: j.state,
          attempts: j.attempts,
          ...(j.outcome ? { outcome: j.outcome } : {}),
          ...(j.error ? { error: j.error } : {}),
        };
      });
      return summarize(ticket, t.reason, t.created_at, jobs);
    },

    async work(handler: VerifyHandler, options: VerifyWorkOptions = {}) {
      await takeWorkerLock();
      // Jobs a previous worker started and never finished: it died. Retried like any failed attempt.
      await serial(async () => {
        const { jobs } = await read();
        await append(
          [...jobs.values()]
            .filter((j) => j.state === 'running')
            .map((j) =>
              j.attempts >= MAX_ATTEMPTS
                ? { e: 'fail', id: j.id, error: 'the worker stopped during every attempt' }
                : { e: 'retry', id: j.id, error: 'the worker stopped during the run' },
            ),
        );
      });
      let stopping = false;
      const sleepers = new Set<() => void>();
      const changed = () => {
        for (const wake of sleepers) wake();
        sleepers.clear();
      };
      let watcher: FSWatcher | null = null;
      try {
        watcher = watchDir(dataDir, (_type, name) => {
          if (name === path.basename(file)) changed();
        });
      } catch {
        // No file watching here: the poll below still finds new jobs.
      }
      const poll = setInterval(changed, 2_000);
      // Asked before looking for a job, so a job queued while looking still wakes this loop.
      const idle = () => new Promise<void>((resolve) => sleepers.add(resolve));

      const take = () =>
        serial(async () => {
          const { jobs } = await read();
          const next = [...jobs.values()].find((j) => j.state === 'queued');
          if (!next) return null;
          const attempt = next.attempts + 1;
          await append([{ e: 'start', id: next.id, attempt, at: new Date().toISOString() }]);
          return { ...next, attempt };
        });

      const loop = async () => {
        while (!stopping) {
          const signal = idle();
          const job = await take();
          if (!job) {
            await signal;
            continue;
          }
          const { aid, reason, queued_at, attempt } = job;
          options.onEvent?.({ type: 'started', aid, attempt });
          try {
            const outcome = await handler({ aid, reason, queued_at, attempt });
            await serial(() => append([{ e: 'done', id: job.id, outcome }]));
            options.onEvent?.({ type: 'finished', aid, attempt });
          } catch (error) {
            const message = (error as Error).message;
            const last = attempt >= MAX_ATTEMPTS;
            await serial(() => append([{ e: last ? 'fail' : 'retry', id: job.id, error: message }]));
            options.onEvent?.({ type: last ? 'finished' : 'retry', aid, attempt, error: message });
          }
        }
      };
      const loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, loop);
      return {
        async stop() {
          stopping = true;
          changed();
          clearInterval(poll);
          watcher?.close();
          await Promise.all(loops);
          await fsp.rm(lockFile, { force: true });
        },
      };
    },

    async close() {
      await chain;
    },
  };
}
