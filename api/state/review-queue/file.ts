// Suggestions sent as micro_translation wait here for a human; nothing a caller sends is ever written into
// the catalog directly. One file per suggestion (written by temp + rename), so concurrent submissions
// never read-modify-write a shared document. The admin routes list, read and remove them.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createStorage, type Storage } from 'unstorage';
import { atomicFsDriver } from '../../../build/catalog/storage/atomic-fs-driver.ts';
import type { AgentClass } from '../../http/client.ts';

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
export const suggestionId = (at: Date) => `${at.getTime().toString(36).padStart(9, '0')}-${randomBytes(5).toString('hex')}`;
/** Two suggestions with the same key are one: the second is not queued while the first is pending. */
export const dedupeKey = (s: Pick<Suggestion, 'aid' | 'field' | 'value'>) => `${s.aid}\u0000${s.field}\u0000${s.value}`;
const keyOf = (id: string) => `suggestions:${id}.json`;

export async function fileReviewQueue(options: { dataDir: string; maxPending?: number }): Promise<ReviewQueue> {
  const storage: Storage = createStorage({ driver: atomicFsDriver({ base: path.join(options.dataDir, 'review') }) });
  // A bound on pending suggestions keeps a flood of POSTs from filling the disk.
  const maxPending = options.maxPending ?? 10_000;
  const read = async (id: string) => {
    if (!SAFE_ID.test(id)) return null;
    const raw = await storage.getItem<Suggestion | string>(keyOf(id));
    if (raw == null) return null;
    return typeof raw === 'string' ? (JSON.parse(raw) as Suggestion) : raw;
  };
  const ids = async () => (await storage.getKeys('suggestions:')).map((k) => k.slice('suggestions:'.length, -'.json'.length)).sort();
  const pending = new Set<string>();
  for (const id of await ids()) {
    const s = await read(id).catch(() => null);
    if (s) pending.add(dedupeKey(s));
  }
  return {
    async submit(input) {
      const key = dedupeKey(input);
      if (pending.has(key) || pending.size >= maxPending) return null;
      pending.add(key);
      const at = new Date();
      const id = suggestionId(at);
      const s: Suggestion = { id, ...input, submitted_at: at.toISOString(), status: 'pending' };
      try {
        await storage.setItemRaw(keyOf(id), `${JSON.stringify(s, null, 2)}\n`);
      } catch (error) {
        pending.delete(key);
        throw error;
      }
      return s;
    },
    async list() {
      const out: Suggestion[] = [];
      for (const id of await ids()) {
        const s = await read(id).catch(() => null);
        if (s) out.push(s);
      }
      return out;
    },
    get: read,
    async remove(id) {
      const s = await read(id);
      if (!s) return;
      await storage.removeItem(keyOf(id));
      pending.delete(dedupeKey(s));
    },
  };
}
