// Build work that runs on the second core while Eleventy renders on the first: static JSON and the
// search index depend only on the contracts, so they need nothing from the HTML step.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { ToolContract } from './contract.ts';
import { manifestFiles, type ServedManifest } from './discovery/api-static.ts';
import { contractFile, listingFiles } from './discovery/static-json.ts';
import type { OutputFile } from './discovery/sitemap.ts';
import { bundleSearchClient } from './search/bundle.ts';
import { documentFromContract, writeStaticSearch } from './search/index.ts';
import { isListable } from './views.ts';
import { writeFiles } from './write-files.ts';

const SEARCH_PAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../site/search/index.html');

export interface WorkerJob {
  buildDir: string;
  baseUrl: string;
  /** All tools in reliability order (for the listings). */
  tools: ToolContract[];
  /** Aids whose own files must be written (all of them in a full build). */
  render: string[] | null;
  /** Served web-API manifests: each becomes /api/v1/services/<name>/mai-api.json. */
  apis: ServedManifest[];
}

export interface WorkerResult {
  phases: Record<string, number>;
}

function* staticJsonFiles(job: WorkerJob): Generator<OutputFile> {
  yield* listingFiles(job.tools, job.baseUrl);
  const render = job.render ? new Set(job.render) : null;
  for (const t of job.tools) if (!render || render.has(t.identity.aid)) yield contractFile(t, job.baseUrl);
}

export async function runJob(job: WorkerJob): Promise<WorkerResult> {
  const phases: Record<string, number> = {};
  const t = performance.now();
  await writeFiles(job.buildDir, staticJsonFiles(job));
  phases['static-json'] = Math.round(performance.now() - t);
  const a = performance.now();
  await writeFiles(job.buildDir, manifestFiles(job.apis));
  phases['api-json'] = Math.round(performance.now() - a);
  const s = performance.now();
  await writeSearch(job);
  phases.search = Math.round(performance.now() - s);
  return { phases };
}

/** The static search: lunr shards of the listable tools, the bundled client and its page. */
async function writeSearch(job: WorkerJob): Promise<void> {
  const dir = path.join(job.buildDir, 'search');
  writeStaticSearch(job.tools.filter(isListable).map(documentFromContract), dir);
  await bundleSearchClient(path.join(dir, 'search.js'));
  const page = readFileSync(SEARCH_PAGE, 'utf8').replace('<link rel="canonical" href="/search/">', `<link rel="canonical" href="${job.baseUrl}/search/">`);
  writeFileSync(path.join(dir, 'index.html'), page);
}

/** Runs the job in a worker thread; resolves with its phase timings, rejects with its error. */
export function runJobInWorker(job: WorkerJob): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: job });
    worker.once('message', (m: { ok: true; result: WorkerResult } | { ok: false; error: string }) => (m.ok ? resolve(m.result) : reject(new Error(m.error))));
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`build worker exited with ${code}`)); });
  });
}

if (parentPort && workerData) {
  const port = parentPort;
  runJob(workerData as WorkerJob).then(
    (result) => port.postMessage({ ok: true, result }),
    (error: Error) => port.postMessage({ ok: false, error: error.stack ?? String(error) }),
  );
}
