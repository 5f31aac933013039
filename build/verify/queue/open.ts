// Which verification queue a process uses: with STORAGE_URL=redis:// the BullMQ queue every server and
// worker on that Redis shares; otherwise the file queue under DATA_DIR (one worker on the server's machine).
// Given a folder alone, STORAGE_URL still decides (so a producer passing DATA_DIR shares the workers' queue).
import { type Config, loadConfig } from '../../config.ts';
import { createFileVerifyQueue } from './file.ts';
import { createRedisVerifyQueue } from './redis.ts';
import type { VerifyQueue } from './types.ts';

export function openVerifyQueue(where: string | Pick<Config, 'dataDir' | 'storageUrl'> = loadConfig()): VerifyQueue {
  const { dataDir, storageUrl } =
    typeof where === 'string'
      ? { dataDir: where, storageUrl: process.env.STORAGE_URL ? loadConfig().storageUrl : undefined }
      : where;
  return storageUrl ? createRedisVerifyQueue(storageUrl) : createFileVerifyQueue(dataDir);
}
