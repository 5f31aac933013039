// Which verification queue a process uses: with STORAGE_URL=redis:// the BullMQ queue every server and
// worker on that Redis shares; otherwise the file queue under DATA_DIR (one worker on the server's machine).
import { loadConfig } from '../../config.ts';
import { createFileVerifyQueue } from './file.ts';
import { createRedisVerifyQueue } from './redis.ts';
import type { VerifyQueue } from './types.ts';

export function openVerifyQueue(
  dataDir = loadConfig().dataDir,
  storageUrl: string | undefined = loadConfig().storageUrl,
): VerifyQueue {
  return storageUrl ? createRedisVerifyQueue(storageUrl) : createFileVerifyQueue(dataDir);
}
