// Bootstrap for the rebuild worker thread: teach this thread's loader TypeScript (tsx), then run the
// worker module. Plain JS because a worker starts without the parent's loader hooks.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
