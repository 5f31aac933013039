// The review queue behind one interface: suggestions and proposed contracts wait here until an admin accepts
// or rejects them; in files under DATA_DIR (file.ts) or in Redis (redis.ts), one conformance suite for both.
import { randomBytes } from 'node:crypto';
import type { AgentClass } from '../../services/agent-class.ts';

export interface Suggestion {
  id: string;
  aid: string;
  /** The missing field the micro_task asked for, or null when the contract had no micro_task. */
  field: 'install_cmd' | 'execute_cmd' | null;
  value: string;
  agent: AgentClass;
  submitted_at: string;
  status: 'pending';
  /**
   * How it came: a micro_translation from the tax gate (when absent), or POST /api/v1/contribute as a
   * command `fix` or a whole `contract` (then `value` is the contract as JSON text, `field` null), or an
   * admin API compile/ingest that would change a verified manifest's base_url or auth (`api`: `aid` is the
   * service_name, `value` the manifest as JSON text).
   */
  kind?: 'micro_translation' | 'fix' | 'contract' | 'api';
  /** The contributor's note, if any. */
  note?: string;
}

export type NewSuggestion = Omit<Suggestion, 'id' | 'submitted_at' | 'status'>;

export interface ReviewQueue {
  /** Queues a suggestion; answers null when it duplicates a pending one or the queue is full. */
  submit(s: NewSuggestion): Promise<Suggestion | null>;
  list(): Promise<Suggestion[]>;
  get(id: string): Promise<Suggestion | null>;
  remove(id: string): Promise<void>;
}

// Shared with the Redis queue (api/review-queue-redis.ts), so both name and deduplicate suggestions alike.
/** What a suggestion id looks like (anything else is never looked up). */
export const SAFE_ID = /^[a-z0-9-]{1,64}$/;
/** A new suggestion id: time first, so a sorted listing is oldest first. */
export const suggestionId = (at: Date) =>
  `${at.getTime().toString(36).padStart(9, '0')}-${randomBytes(5).toString('hex')}`;
/** Two suggestions with the same key are one: the second is not queued while the first is pending. */
export const dedupeKey = (s: Pick<Suggestion, 'aid' | 'field' | 'value'>) => `${s.aid}\u0000${s.field}\u0000${s.value}`;
