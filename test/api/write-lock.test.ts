// The catalog write lock shared by processes on one Redis (api/write-lock.ts), against a real redis-server:
// writes queue behind the holder, a holder that died stops blocking once its lock expires, and a write
// that cannot get the lock in time answers 503 having changed nothing. (The end-to-end race of two real
// server processes is in redis-overlay.test.ts.)
import { answerOf } from '../../api/http/errors.ts';
import { DomainError } from '../../api/services/errors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogOverlay, redisOverlay } from '../../build/catalog/storage/redis-overlay.ts';
import { withSharedWriteLock, withWriteLock } from '../../api/writes/write-lock.ts';
import { type RedisProcess, startRedis } from '../helpers/redis.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('shared catalog write lock', () => {
  let redis: RedisProcess;
  let overlay: CatalogOverlay;
  let other: CatalogOverlay;

  beforeAll(async () => {
    redis = await startRedis();
    overlay = redisOverlay(redis.url, 'wl:');
    other = redisOverlay(redis.url, 'wl:');
    await Promise.all([overlay.ready(), other.ready()]);
  });
  afterAll(async () => {
    await overlay?.driver.dispose?.();
    await other?.driver.dispose?.();
    await redis?.stop();
  });

  it('runs writes of two stores (two processes) one at a time, and releases the lock after each', async () => {
    let inside = 0;
    let most = 0;
    const order: string[] = [];
    const write = (who: CatalogOverlay, name: string) =>
      withSharedWriteLock(who, async () => {
        inside++;
        most = Math.max(most, inside);
        await sleep(30);
        order.push(name);
        inside--;
        return name;
      });
    const names = Array.from({ length: 8 }, (_, i) => `w${i}`);
    await Promise.all(names.map((name, i) => write(i % 2 ? overlay : other, name)));
    expect(most).toBe(1);
    // Every write ran, each exactly once.
    expect([...order].sort()).toEqual(names);
    expect(await overlay.client().exists(overlay.names.writeLock)).toBe(0);
  });

  it('releases the lock when the write throws', async () => {
    await expect(
      withSharedWriteLock(overlay, async () => {
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(await overlay.client().exists(overlay.names.writeLock)).toBe(0);
  });

  it('waits out a dead holder: its lock expires and the write goes ahead', async () => {
    await overlay.client().set(overlay.names.writeLock, 'dead-host:1:x', 'PX', 400);
    const t = Date.now();
    expect(await withSharedWriteLock(overlay, async () => 'written')).toBe('written');
    expect(Date.now() - t).toBeGreaterThanOrEqual(300);
  });

  it('answers 503 with Retry-After, without running the write, when the lock stays taken', async () => {
    await overlay.client().set(overlay.names.writeLock, 'busy-host:1:x', 'PX', 10_000);
    let ran = false;
    const error = await withSharedWriteLock(
      overlay,
      async () => {
        ran = true;
      },
      300,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    const answer = answerOf(error as DomainError);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(ran).toBe(false);
    // Someone else's lock is never released by the refused writer.
    expect(await overlay.client().get(overlay.names.writeLock)).toBe('busy-host:1:x');
    await overlay.client().del(overlay.names.writeLock);
  });

  it('without an overlay (one process, files) just runs the write; the local chain still orders writes', async () => {
    const ctx = {};
    const order: number[] = [];
    await Promise.all(
      [3, 1, 2].map((ms, i) =>
        withWriteLock(ctx, async () => {
          await sleep(ms * 10);
          order.push(i);
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2]);
    expect(await withSharedWriteLock(undefined, async () => 'plain')).toBe('plain');
  });
});
