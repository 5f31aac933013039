// The verification queue behind one interface: contracts wait here to be installed and run in the sandbox
// (npm run verify:worker drains it). One file per backend: file.ts (one process, a laptop), and a Redis one
// for several workers. Producers (the importer, ingest, accepted contributions, POST /admin/verify) only enqueue.

/** Why a contract was queued; kept with the job so a report can say what triggered a run. */
export const VERIFY_REASONS = ['import', 'ingest', 'accept', 'admin', 'schedule'] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export interface VerifyJob {
  aid: string;
  reason: VerifyReason;
  queued_at: string;
}

export interface VerifyQueue {
  /** Queues the contracts (one job per aid; an aid already waiting is not queued twice) and answers a ticket. */
  enqueue(aids: string[], reason: VerifyReason): Promise<{ ticket: string; queued: number }>;
  /** Jobs waiting, oldest first. */
  pending(): Promise<VerifyJob[]>;
  close(): Promise<void>;
}
