// The verification queue behind one interface: contracts wait here to be installed and run in the sandbox
// (npm run verify:worker drains it). One file per backend: file.ts (one worker on one machine, state in a
// JSON-lines file under DATA_DIR) and redis.ts (BullMQ: any number of workers on any number of machines);
// test/build/verify/queue-conformance.test.ts holds both to the same behaviour. Producers (the importer,
// ingest, accepted contributions, POST /admin/verify) only enqueue and read tickets; only workers call work().
import { randomBytes } from 'node:crypto';

/** Why a contract was queued; kept with the job so a report can say what triggered a run. */
export const VERIFY_REASONS = ['import', 'ingest', 'accept', 'admin', 'schedule'] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export interface VerifyJob {
  aid: string;
  reason: VerifyReason;
  queued_at: string;
}

/** What a finished job reports: the stored evidence in short (record.verification holds the whole of it). */
export interface VerifyJobOutcome {
  status: 'passed' | 'failed' | 'unverifiable';
  level?: 'runs' | 'loads';
  reason: string;
  checked_at: string;
  /** Set when the outcome could not be stored in the contract (e.g. the contract vanished meanwhile). */
  write_error?: string;
}

/**
 * queued: waiting (also between retries); running: a worker has it; done: the verifier ran and reported
 * (whatever the tool's status); failed: the worker itself failed on every attempt; unknown: the job was
 * removed (finished jobs are kept for a week).
 */
export type VerifyJobState = 'queued' | 'running' | 'done' | 'failed' | 'unknown';

export interface TicketJob {
  aid: string;
  state: VerifyJobState;
  /** Attempts started so far (a retried job after a crashed worker counts 2). */
  attempts: number;
  outcome?: VerifyJobOutcome;
  /** Why the worker failed (state failed, or the last failed attempt of a job queued again). */
  error?: string;
}

export interface TicketStatus {
  ticket: string;
  reason: VerifyReason;
  created_at: string;
  /** done once every job is done, failed or unknown; running once any job started. */
  state: 'queued' | 'running' | 'done';
  counts: Record<VerifyJobState, number>;
  jobs: TicketJob[];
}

/** Runs one job; resolves with its outcome, throws when the worker (not the tool) failed: the job is retried. */
export type VerifyHandler = (job: VerifyJob & { attempt: number }) => Promise<VerifyJobOutcome>;

export interface VerifyWorker {
  /** Takes no new job, waits for the jobs in hand to finish. */
  stop(): Promise<void>;
}

export interface VerifyWorkOptions {
  /** Jobs run at once by this worker (default 1). */
  concurrency?: number;
  /** A job is started (`started`) or finished (`finished`); for logs and tests. */
  onEvent?: (event: { type: 'started' | 'finished' | 'retry'; aid: string; attempt: number; error?: string }) => void;
}

export interface VerifyQueue {
  /**
   * Queues the contracts (one job per aid; an aid already waiting is not queued twice, its waiting job is
   * shared by both tickets) and answers a ticket whose status follows every aid given.
   */
  enqueue(aids: string[], reason: VerifyReason): Promise<{ ticket: string; queued: number }>;
  /** Jobs waiting, oldest first. */
  pending(): Promise<VerifyJob[]>;
  /** Progress of a ticket; null when no such ticket (or it expired: tickets are kept for a week). */
  status(ticket: string): Promise<TicketStatus | null>;
  /** Starts taking jobs (a worker process only: the API server never runs contributed commands). */
  work(handler: VerifyHandler, options?: VerifyWorkOptions): Promise<VerifyWorker>;
  close(): Promise<void>;
}

/** Attempts per job before it is `failed` (a crashed or stopped worker's job is retried). */
export const MAX_ATTEMPTS = 3;
/** How long tickets and finished jobs are kept. */
export const KEEP_MS = 7 * 24 * 3600 * 1000;
/** What a ticket id looks like; anything else is never looked up. */
export const TICKET_PATTERN = /^[a-z0-9]{6,16}-[a-f0-9]{8}$/;

/** A ticket id nobody can guess the next of (time first, so tickets sort by age). */
export const newTicket = () => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/** A ticket's status from its jobs' states. */
export function summarize(ticket: string, reason: VerifyReason, created_at: string, jobs: TicketJob[]): TicketStatus {
  const counts: Record<VerifyJobState, number> = { queued: 0, running: 0, done: 0, failed: 0, unknown: 0 };
  for (const j of jobs) counts[j.state]++;
  const open = counts.queued + counts.running;
  const started = jobs.some((j) => j.state !== 'queued');
  return { ticket, reason, created_at, state: open === 0 ? 'done' : started ? 'running' : 'queued', counts, jobs };
}
