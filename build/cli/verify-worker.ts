// npm run verify:worker [-- --concurrency N]: takes jobs from the verification queue (POST /admin/verify,
// ingests, accepted contributions, imports) and runs each in the bubblewrap sandbox (build/verify/), storing
// record.verification through the catalog store. With STORAGE_URL=redis:// the queue is BullMQ's and the
// store writes to the Redis overlay, whose change notice makes every API server reload the contract and
// rebuild (api/writes/catalog-sync.ts); run as many workers, on as many machines, as the catalog needs.
// Without it the queue is a file under DATA_DIR (one worker) and the contract file is written in CATALOG_DIR,
// where the server's catalog watcher (api/writes/catalog-watch.ts) picks it up. Runs until SIGTERM/SIGINT,
// which lets the jobs in hand finish; a killed worker's job is retried by another worker (or the next start).
import { withSharedWriteLock } from '../../api/writes/write-lock.ts';
import { type CatalogStore, catalogStoreFor } from '../catalog/catalog-store.ts';
import { loadConfig } from '../config.ts';
import { openVerifyQueue } from '../verify/queue/open.ts';
import type { VerifyJobOutcome } from '../verify/queue/types.ts';
import { sandboxUnavailable } from '../verify/sandbox.ts';
import { verifyCatalog } from '../verify/verify-catalog.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run verify:worker [-- --concurrency N]
Takes verification jobs from the queue and runs them in the bubblewrap sandbox, storing the evidence
(record.verification) through the catalog store. STORAGE_URL=redis://… : the shared BullMQ queue (any number
of workers); otherwise the file queue under DATA_DIR (one worker). Stops on SIGTERM/SIGINT after the jobs in
hand. --concurrency: jobs at once (default 1, at most 16). Exit 2 when it cannot run.
`);

const argv = process.argv.slice(2).filter((a) => a !== '--');
let concurrency = 1;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--concurrency') concurrency = Number(argv[++i]);
  else {
    console.error(`unknown argument ${argv[i]}`);
    process.exit(2);
  }
}
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
  console.error('--concurrency must be an integer from 1 to 16');
  process.exit(2);
}
const unavailable = sandboxUnavailable();
if (unavailable) {
  console.error(`cannot verify: ${unavailable}`);
  process.exit(2);
}

const config = loadConfig();
const base = catalogStoreFor(config);
// Evidence writes take the catalog write lock the API servers take (under Redis), so they never interleave.
const store: CatalogStore = {
  ...base,
  write: (kind, id, value) => withSharedWriteLock(base.overlay, () => base.write(kind, id, value)),
};
const queue = openVerifyQueue(config);

async function verifyJob({ aid }: { aid: string }): Promise<VerifyJobOutcome> {
  const [o] = await verifyCatalog(store, [aid], { write: true, concurrency: 1 });
  if (!o) throw new Error(`the verifier reported nothing for ${aid}`);
  const v = o.verification;
  return {
    status: v.status,
    ...(v.level ? { level: v.level } : {}),
    reason: v.reason,
    checked_at: v.checked_at,
    ...(o.writeError ? { write_error: o.writeError } : {}),
  };
}

let worker: Awaited<ReturnType<typeof queue.work>>;
try {
  worker = await queue.work(
    async (job) => {
      const outcome = await verifyJob(job);
      console.log(
        `finished ${job.aid}: ${outcome.status}${outcome.level ? ` (${outcome.level})` : ''}` +
          `${outcome.write_error ? `, not stored: ${outcome.write_error}` : ''}`,
      );
      return outcome;
    },
    {
      concurrency,
      onEvent: (e) => {
        if (e.type === 'started') console.log(`started ${e.aid} (attempt ${e.attempt})`);
        else if (e.type === 'retry') console.log(`retry ${e.aid} after attempt ${e.attempt}: ${e.error}`);
        else if (e.error) console.log(`failed ${e.aid} after attempt ${e.attempt}: ${e.error}`);
      },
    },
  );
} catch (error) {
  console.error(`verify:worker: ${(error as Error).message}`);
  await queue.close();
  await base.storage.dispose();
  process.exit(2);
}
console.log(
  `ready: ${config.storageUrl ? 'Redis (BullMQ)' : 'file'} queue, concurrency ${concurrency}, pid ${process.pid}`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('stopping after the jobs in hand');
  await worker.stop();
  await queue.close();
  await base.storage.dispose();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
