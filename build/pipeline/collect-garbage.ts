// A full garbage collection on request, for a thread that has just dropped a large working set and
// goes on to work that allocates little on the JS heap (compressing files): V8 collects when
// allocation asks for it, so without this the dropped set stays in memory through that work. At
// 100,000 tools the search index leaves about 400 MB of garbage in the build worker while it then
// compresses for 20 s, which is when the main thread's Eleventy batches peak. Node exposes gc() only
// under --expose-gc; setting the flag at run time makes it visible in contexts created afterwards
// (the approach jest's leak detector takes).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
