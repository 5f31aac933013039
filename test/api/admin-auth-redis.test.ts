// The shared admin lockout fails closed: while Redis cannot count wrong secrets, admin answers 503 (with
// Retry-After) instead of checking secrets uncounted. (Counting across instances: redis-conformance.test.ts.)
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerOf } from '../../api/http/errors.ts';
import { DomainError } from '../../api/services/errors.ts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAuthFailures } from '../../api/state/admin-auth/redis.ts';

describe('admin lockout on an unreachable Redis', () => {
  let client: Redis;
  beforeAll(async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
  });
  afterAll(() => client.disconnect());

  it('answers 503 with Retry-After for both the lockout check and the failure count', async () => {
    const failures = redisAuthFailures({ client });
    for (const attempt of [failures.lockedFor('203.0.113.7'), failures.fail('203.0.113.7')]) {
      const error = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      const answer = answerOf(error as DomainError);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
    }
  });
});
