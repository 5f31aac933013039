// The verification queue in one JSON-lines file under DATA_DIR: enough for one process on a laptop or a CLI
// run; appends are whole lines, so a crash loses at most the line being written, never earlier jobs.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { VerifyJob, VerifyQueue, VerifyReason } from './types.ts';

export function createFileVerifyQueue(dataDir: string): VerifyQueue {
  const file = path.join(dataDir, 'verify-queue.jsonl');

  const pending = async (): Promise<VerifyJob[]> => {
    const text = await fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return '';
      throw e;
    });
    const jobs: VerifyJob[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        jobs.push(JSON.parse(line) as VerifyJob);
      } catch {
        // A torn last line from a crash: skip it rather than lose the queue.
      }
    }
    return jobs;
  };

  return {
    pending,
    async enqueue(aids: string[], reason: VerifyReason) {
      const waiting = new Set((await pending()).map((j) => j.aid));
      const queued_at = new Date().toISOString();
      const fresh = [...new Set(aids)].filter((aid) => !waiting.has(aid));
      if (fresh.length) {
        await fsp.mkdir(dataDir, { recursive: true });
        await fsp.appendFile(file, fresh.map((aid) => `${JSON.stringify({ aid, reason, queued_at })}\n`).join(''));
      }
      return { ticket: `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`, queued: fresh.length };
    },
    async close() {},
  };
}
