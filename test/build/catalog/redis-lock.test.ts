// The Redis lock behind shared rebuilds (build/catalog/storage/redis-lock.ts), against a real redis-server:
// one holder at a time, renewal while held, release only by the holder, and a lost lock noticed.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tryLock } from '../../../build/catalog/storage/redis-lock.ts';
import { type RedisProcess, startRedis } from '../../helpers/redis.ts';

let redis: RedisProcess;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

/** Resolves when `check` holds, polling Redis (no fixed sleep decides the outcome). */
async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('redis lock', () => {
  it('gives the lock to one holder at a time and frees it on release', async () => {
    const first = await tryLock(client, 'lk:one', 5_000, () => {});
    expect(first).not.toBeNull();
    expect(await tryLock(client, 'lk:one', 5_000, () => {})).toBeNull();
    expect(await client.get('lk:one')).toBe(first?.token);
    await first?.release();
    const second = await tryLock(client, 'lk:one', 5_000, () => {});
    expect(second).not.toBeNull();
    await second?.release();
  });

  it('keeps renewing while held, past its TTL', async () => {
    const held = await tryLock(client, 'lk:renew', 300, () => {});
    const started = Date.now();
    // Three TTLs later the key must still be there, with the holder's token.
    await until(async () => Date.now() - started > 900);
    expect(await client.get('lk:renew')).toBe(held?.token);
    expect(held?.lost).toBe(false);
    await held?.release();
  });

  it("never releases another holder's lock, and notices when its own was taken", async () => {
    const lines: string[] = [];
    const held = await tryLock(client, 'lk:taken', 300, (line) => lines.push(line));
    await client.set('lk:taken', 'someone-else');
    await until(async () => held?.lost === true);
    await held?.release();
    expect(await client.get('lk:taken')).toBe('someone-else');
    expect(lines.join('\n')).toMatch(/lost/);
  });
});
