// The verification queue in Redis through BullMQ (STORAGE_URL=redis://), so verification workers run on as
// many machines as the catalog needs: each job is handed to one worker at a time under a lock the worker
// renews while it runs; a worker that dies (SIGKILL, a lost machine) stops renewing, and BullMQ's stalled-job
// check moves its job back to the queue for another worker. One job per aid: while a job waits, queueing the
// same aid again joins it (BullMQ deduplication by aid); once a worker starts it, the key is released, so a
// contract changed during its run is verified again afterwards. Tickets are a list of (aid, job id) kept
// beside the queue for a week, like the finished jobs they point to.
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  KEEP_MS,
  MAX_ATTEMPTS,
  newTicket,
  summarize,
  type TicketJob,
  type VerifyHandler,
  type VerifyJob,
  type VerifyJobOutcome,
  type VerifyJobState,
  type VerifyQueue,
  type VerifyReason,
  type VerifyWorker,
  type VerifyWorkOptions,
} from './types.ts';

export interface RedisVerifyQueueOptions {
  /** BullMQ key prefix (default `tcc`): keys are `<prefix>:verify:*`, tickets `<prefix>:verify-ticket:*`. */
  prefix?: string;
  /** A worker's lock on its job; renewed every half of it while the job runs (VERIFY_LOCK_MS, default 30 s). */
  lockMs?: number;
  /** How often workers look for jobs whose worker died (VERIFY_STALLED_CHECK_MS, default 30 s). */
  stalledCheckMs?: number;
  /** Wait before retrying a job whose worker failed (default 10 s). */
  retryDelayMs?: number;
}

const QUEUE = 'verify';
const ADD_BATCH = 1_000;
/** Jobs read per pipeline when a ticket's status is asked for (four commands each). */
const STATUS_BATCH = 1_000;

const envMs = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

interface TicketRecord {
  reason: VerifyReason;
  created_at: string;
  jobs: [string, string][];
}

export function createRedisVerifyQueue(url: string, options: RedisVerifyQueueOptions = {}): VerifyQueue {
  const prefix = options.prefix ?? 'tcc';
  // Producers (the API server) fail fast while Redis is down, so an ingest or POST /admin/verify answers
  // instead of waiting for Redis; workers get their own connection, which waits (BullMQ's blocking commands
  // need maxRetriesPerRequest: null).
  const connection = new Redis(url, {
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    commandTimeout: 10_000,
    lazyConnect: true,
  });
  connection.on('error', () => undefined);
  const queue = new Queue<VerifyJob, VerifyJobOutcome>(QUEUE, { connection, prefix });
  queue.on('error', () => undefined);
  const ticketKey = (ticket: string) => `${prefix}:verify-ticket:${ticket}`;
  const workers: VerifyWorker[] = [];
  const workerConnections: Redis[] = [];

  /**
   * The jobs of a ticket, read in pipelines of STATUS_BATCH jobs: per job its hash fields and membership of
   * the completed and failed sets (O(log n)) and of the active list (as long as the jobs running now). BullMQ's
   * own getState also looks a job up in the waiting list, one linear scan per job (10,000 aids waiting took
   * 4.4 s to read); a job in none of these is waiting (or delayed for a retry), which is `queued` here anyway.
   * Key layout and field names are BullMQ's (queue.toKey, the job hash); the conformance suite holds them.
   */
  async function jobsOf(pairs: [string, string][]): Promise<TicketJob[]> {
    const out: TicketJob[] = [];
    const [completed, failed, active] = ['completed', 'failed', 'active'].map((k) => queue.toKey(k));
    for (let i = 0; i < pairs.length; i += STATUS_BATCH) {
      const batch = pairs.slice(i, i + STATUS_BATCH);
      const pipe = connection.pipeline();
      for (const [, id] of batch) {
        pipe.hmget(queue.toKey(id), 'name', 'returnvalue', 'failedReason', 'ats', 'atm', 'attemptsMade');
        pipe.zscore(completed as string, id);
        pipe.zscore(failed as string, id);
        pipe.lpos(active as string, id);
      }
      const replies = (await pipe.exec()) ?? [];
      for (const [k, [aid]] of batch.entries()) {
        const [fields, done, dead, running] = replies.slice(k * 4, k * 4 + 4).map(([error, value]) => {
          if (error) throw error;
          return value;
        });
        const [name, returnvalue, failedReason, ats, atm, legacyAtm] = fields as (string | null)[];
        if (name == null) {
          out.push({ aid, state: 'unknown', attempts: 0 });
          continue;
        }
        const state: VerifyJobState =
          done != null ? 'done' : dead != null ? 'failed' : running != null ? 'running' : 'queued';
        const outcome = state === 'done' && returnvalue ? (JSON.parse(returnvalue) as VerifyJobOutcome | null) : null;
        out.push({
          aid,
          state,
          attempts: Number(ats ?? atm ?? legacyAtm ?? 0),
          ...(outcome ? { outcome } : {}),
          ...(failedReason && state !== 'done' ? { error: failedReason } : {}),
        });
      }
    }
    return out;
  }

  return {
    async enqueue(aids, reason) {
      const ticket = newTicket();
      const queued_at = new Date().toISOString();
      const unique = [...new Set(aids)];
      const jobs: [string, string][] = [];
      let queued = 0;
      for (let i = 0; i < unique.length; i += ADD_BATCH) {
        const batch = unique.slice(i, i + ADD_BATCH);
        const added = await queue.addBulk(
          batch.map((aid, k) => ({
            name: QUEUE,
            data: { aid, reason, queued_at },
            opts: {
              jobId: `${ticket}.${i + k}`,
              deduplication: { id: aid },
              attempts: MAX_ATTEMPTS,
              backoff: { type: 'fixed', delay: options.retryDelayMs ?? 10_000 },
              removeOnComplete: { age: KEEP_MS / 1000 },
              removeOnFail: { age: KEEP_MS / 1000 },
            },
          })),
        );
        added.forEach((job, k) => {
          const mine = `${ticket}.${i + k}`;
          // A deduplicated add answers the id of the job already waiting for this aid.
          if (job.id === mine) queued++;
          jobs.push([batch[k] as string, job.id ?? mine]);
        });
      }
      const record: TicketRecord = { reason, created_at: queued_at, jobs };
      await connection.set(ticketKey(ticket), JSON.stringify(record), 'PX', KEEP_MS);
      return { ticket, queued };
    },

    async pending() {
      const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed'], 0, -1, true);
      return jobs
        .filter((j): j is Job<VerifyJob, VerifyJobOutcome> => Boolean(j))
        .map((j) => ({ aid: j.data.aid, reason: j.data.reason, queued_at: j.data.queued_at }))
        .sort((a, b) => a.queued_at.localeCompare(b.queued_at));
    },

    async status(ticket) {
      const text = await connection.get(ticketKey(ticket));
      if (!text) return null;
      const t = JSON.parse(text) as TicketRecord;
      return summarize(ticket, t.reason, t.created_at, await jobsOf(t.jobs));
    },

    async work(handler: VerifyHandler, workOptions: VerifyWorkOptions = {}) {
      const blocking = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
      blocking.on('error', () => undefined);
      workerConnections.push(blocking);
      const worker = new Worker<VerifyJob, VerifyJobOutcome>(
        QUEUE,
        async (job) => {
          // Queueing this aid again from now on makes a new job: the contract may change during this run.
          await job.removeDeduplicationKey();
          const attempt = job.attemptsStarted ?? job.attemptsMade + 1;
          workOptions.onEvent?.({ type: 'started', aid: job.data.aid, attempt });
          return handler({ ...job.data, attempt });
        },
        {
          connection: blocking,
          prefix,
          concurrency: Math.max(1, workOptions.concurrency ?? 1),
          lockDuration: options.lockMs ?? envMs('VERIFY_LOCK_MS', 30_000),
          stalledInterval: options.stalledCheckMs ?? envMs('VERIFY_STALLED_CHECK_MS', 30_000),
          // A job whose worker died is retried; after MAX_ATTEMPTS such deaths it is failed.
          maxStalledCount: MAX_ATTEMPTS - 1,
        },
      );
      worker.on('error', (error) => console.error(`verify worker: ${error.message}`));
      worker.on('completed', (job) =>
        workOptions.onEvent?.({ type: 'finished', aid: job.data.aid, attempt: job.attemptsStarted }),
      );
      worker.on('failed', (job, error) => {
        if (!job) return;
        const last = job.attemptsMade >= MAX_ATTEMPTS;
        workOptions.onEvent?.({
          type: last ? 'finished' : 'retry',
          aid: job.data.aid,
          attempt: job.attemptsStarted,
          error: error.message,
        });
      });
      await worker.waitUntilReady();
      const handle: VerifyWorker = {
        async stop() {
          await worker.close();
        },
      };
      workers.push(handle);
      return handle;
    },

    async close() {
      for (const w of workers.splice(0)) await w.stop();
      await queue.close();
      for (const c of [connection, ...workerConnections.splice(0)]) await c.quit().catch(() => c.disconnect());
    },
  };
}
