// The ReviewQueue shared by several API processes. The duplicate check and the bound on pending
// suggestions must hold across processes, so a submission is one Lua script: two processes receiving the
// same suggestion at once queue it once. Suggestions are only ever queued here; nothing reaches the
// catalog without an admin accepting it.
//
// Keys (prefix `tcc:`): review:items (hash id -> JSON), review:dedupe (hash digest of aid/field/value -> id).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { dedupeKey, type ReviewQueue, SAFE_ID, type Suggestion, suggestionId } from './types.ts';

const SUBMIT = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
`;

const REMOVE = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 and redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[1] then
  redis.call('HDEL', KEYS[2], ARGV[2])
end
return 1
`;

type SubmitFn = (
  items: string,
  dedupe: string,
  digest: string,
  id: string,
  json: string,
  max: number,
) => Promise<number>;
type RemoveFn = (items: string, dedupe: string, id: string, digest: string) => Promise<number>;

const digestOf = (s: Pick<Suggestion, 'aid' | 'field' | 'value'>) =>
  createHash('sha256').update(dedupeKey(s)).digest('hex');

export interface RedisReviewQueueOptions {
  client: Redis;
  prefix?: string;
  maxPending?: number;
}

export function redisReviewQueue({
  client,
  prefix = 'tcc:',
  maxPending = 10_000,
}: RedisReviewQueueOptions): ReviewQueue {
  if (!('tccReviewSubmit' in client)) {
    client.defineCommand('tccReviewSubmit', { numberOfKeys: 2, lua: SUBMIT });
    client.defineCommand('tccReviewRemove', { numberOfKeys: 2, lua: REMOVE });
  }
  const cmd = client as unknown as { tccReviewSubmit: SubmitFn; tccReviewRemove: RemoveFn };
  const items = `${prefix}review:items`;
  const dedupe = `${prefix}review:dedupe`;
  const parse = (json: string | null) => {
    if (json == null) return null;
    try {
      return JSON.parse(json) as Suggestion;
    } catch {
      return null;
    }
  };
  const get = async (id: string) => (SAFE_ID.test(id) ? parse(await client.hget(items, id)) : null);

  return {
    async submit(input) {
      const at = new Date();
      const id = suggestionId(at);
      const s: Suggestion = { id, ...input, submitted_at: at.toISOString(), status: 'pending' };
      const queued = await cmd.tccReviewSubmit.call(
        client,
        items,
        dedupe,
        digestOf(s),
        id,
        JSON.stringify(s),
        maxPending,
      );
      return queued === 1 ? s : null;
    },
    async list() {
      const all = await client.hvals(items);
      return all
        .map(parse)
        .filter((s): s is Suggestion => s !== null)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    get,
    async remove(id) {
      const s = await get(id);
      if (!s) return;
      await cmd.tccReviewRemove.call(client, items, dedupe, id, digestOf(s));
    },
  };
}
