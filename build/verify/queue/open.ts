// Which verification queue a process uses: the file queue under DATA_DIR, unless a backend for shared
// storage is configured (added with the Redis workers).
import { loadConfig } from '../../config.ts';
import { createFileVerifyQueue } from './file.ts';
import type { VerifyQueue } from './types.ts';

export function openVerifyQueue(dataDir = loadConfig().dataDir): VerifyQueue {
  return createFileVerifyQueue(dataDir);
}
