// Suggestions sent as micro_translation wait here for a human; nothing a caller sends is ever written into
// the catalog directly. One file per suggestion (written by temp + rename), so concurrent submissions
// never read-modify-write a shared document. The admin routes list, read and remove them.
import path from 'node:path';
import { createStorage, type Storage } from 'unstorage';
import { atomicFsDriver } from '../../../build/catalog/storage/atomic-fs-driver.ts';
import { dedupeKey, type ReviewQueue, SAFE_ID, type Suggestion, suggestionId } from './types.ts';

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
  const ids = async () =>
    (await storage.getKeys('suggestions:')).map((k) => k.slice('suggestions:'.length, -'.json'.length)).sort();
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
