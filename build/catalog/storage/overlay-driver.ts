// An unstorage driver that lays a writable top layer (Redis) over a read-only base (the git catalog files):
// reads try the top first, writes and deletions go to the top only, so the files stay exactly as the
// repository has them until `npm run export` writes the top back. A deletion is a tombstone in the top,
// because removing a key there would let the base's file show through again.
//
// unstorage's own overlay driver has the same semantics but checks every key of a listing against the top
// layer one by one (100,000 files = 100,000 Redis round trips per list) and has no raw reads; this one
// asks the top only about its own keys.
import { type Driver, defineDriver } from 'unstorage';

/** The value that marks a deleted record in the top layer (unstorage's overlay driver uses the same). */
export const TOMBSTONE = '__OVERLAY_REMOVED__';

export interface OverlayOptions {
  top: Driver;
  base: Driver;
}

const text = (v: unknown): string | null =>
  v == null ? null : typeof v === 'string' ? v : Buffer.from(v as Uint8Array).toString('utf8');

/**
 * Binary values (gzipped operation recipes) go to the text-only top layer as unstorage's own raw encoding,
 * `base64:` and the bytes in base64; records (JSON text, never starting so) are kept as they are.
 */
export const RAW_PREFIX = 'base64:';
const encodeRaw = (v: string | Uint8Array): string =>
  typeof v === 'string' ? v : RAW_PREFIX + Buffer.from(v).toString('base64');
export const decodeRaw = (v: string): string | Buffer =>
  v.startsWith(RAW_PREFIX) ? Buffer.from(v.slice(RAW_PREFIX.length), 'base64') : v;

/** The top layer's keys under `prefix` with their values (tombstones included): what export writes back. */
export async function topEntries(top: Driver, prefix: string): Promise<{ key: string; value: string }[]> {
  const keys = (await top.getKeys(prefix, {})).filter((k) => k.startsWith(prefix));
  if (keys.length === 0) return [];
  const values = top.getItems
    ? (
        await top.getItems(
          keys.map((key) => ({ key })),
          {},
        )
      ).map((e) => e.value)
    : await Promise.all(keys.map((k) => top.getItem(k, {})));
  const out: { key: string; value: string }[] = [];
  keys.forEach((key, i) => {
    const value = text(values[i]);
    if (value !== null) out.push({ key, value });
  });
  return out;
}

export const overlayDriver = defineDriver((opts: OverlayOptions) => {
  const { top, base } = opts;
  const get = async (key: string): Promise<string | Uint8Array | null> => {
    const over = text(await top.getItem(key, {}));
    if (over === TOMBSTONE) return null;
    if (over !== null) return decodeRaw(over);
    const raw = base.getItemRaw ? await base.getItemRaw(key, {}) : await base.getItem(key, {});
    return (raw as string | Uint8Array | null) ?? null;
  };
  const set = (key: string, value: string | Uint8Array) => top.setItem?.(key, encodeRaw(value), {});
  return {
    name: 'catalog-overlay',
    options: opts,
    async hasItem(key: string) {
      return (await get(key)) !== null;
    },
    async getItem(key: string) {
      return text(await get(key));
    },
    getItemRaw: get,
    setItem: (key: string, value: string) => set(key, value),
    setItemRaw: (key: string, value: Uint8Array) => set(key, value),
    async removeItem(key: string) {
      await top.setItem?.(key, TOMBSTONE, {});
    },
    async getKeys(prefix: string) {
      const [files, over] = await Promise.all([base.getKeys(prefix, {}), topEntries(top, prefix)]);
      const keys = new Set(files);
      for (const { key, value } of over) {
        if (value === TOMBSTONE) keys.delete(key);
        else keys.add(key);
      }
      return [...keys];
    },
    async clear() {
      /* never wipe the overlay or the catalog through the storage API; export removes what it wrote */
    },
    async dispose() {
      await top.dispose?.();
      await base.dispose?.();
    },
  };
});
