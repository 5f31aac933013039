// Catalog writes never interleave. Within a process, writes (and reloads of other processes' changes)
// run one after another on a promise chain. Across processes sharing one Redis overlay, a write also holds
// a lock in Redis, so a read-modify-write (update-trust, an accepted command fix, a protected manifest
// check) on one instance cannot overwrite a change another instance made a moment earlier; the writer
// re-reads the records it touches from the store once it holds the lock (catalog-writes.ts).
import { tryLock } from '../../build/catalog/storage/redis-lock.ts';
import type { CatalogOverlay } from '../../build/catalog/storage/redis-overlay.ts';
import { CATALOG } from '../messages.ts';
import { DomainError } from '../services/errors.ts';

// Per context, the tail of the chain of writes; each write starts after the previous one settled.
const locks = new WeakMap<object, Promise<unknown>>();

export function withWriteLock<T>(ctx: object, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(ctx) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  locks.set(
    ctx,
    next.catch(() => undefined),
  );
  return next;
}

/** A dead holder blocks writers this long; a live one renews it (every third of it) while it writes. */
const SHARED_LOCK_TTL_MS = 5_000;
/** How long a write waits for another instance's before answering 503. */
export const SHARED_LOCK_WAIT_MS = 15_000;

/** Runs fn holding the overlay's catalog write lock (no overlay: just runs it). */
export async function withSharedWriteLock<T>(
  overlay: CatalogOverlay | undefined,
  fn: () => Promise<T>,
  waitMs = SHARED_LOCK_WAIT_MS,
): Promise<T> {
  if (!overlay) return fn();
  const client = overlay.client();
  const deadline = Date.now() + waitMs;
  let delay = 5;
  let lock = await tryLock(client, overlay.names.writeLock, SHARED_LOCK_TTL_MS);
  while (!lock) {
    if (Date.now() > deadline) {
      throw new DomainError('unavailable', CATALOG.writeLockBusy, 2);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 100);
    lock = await tryLock(client, overlay.names.writeLock, SHARED_LOCK_TTL_MS);
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/**
 * A catalog write: both locks, and with an overlay `refresh` first (re-reading the records the write
 * touches into memory), so the write modifies what is stored now, not what this process last heard of.
 */
export function withCatalogWrite<T>(
  ctx: { store: { overlay?: CatalogOverlay | undefined } },
  refresh: () => Promise<void>,
  fn: () => Promise<T>,
): Promise<T> {
  const { overlay } = ctx.store;
  return withWriteLock(ctx, () =>
    withSharedWriteLock(overlay, async () => {
      if (overlay) await refresh();
      return fn();
    }),
  );
}
