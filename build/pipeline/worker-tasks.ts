// Build work that runs on the second core while Eleventy renders on the first: static JSON and the
// search index depend only on the contracts, so they need nothing from the HTML step.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { ToolContract } from '../model/contract.ts';
import { linkRecipeFiles, type RecipeLinkStats } from '../discovery/api-recipes-static.ts';
import { type ServedManifest, writeManifestFiles } from '../discovery/api-static.ts';
import { contractFile, listingFiles, STATIC_TOOLS_DIR } from '../discovery/static-json.ts';
import type { OutputFile } from '../discovery/sitemap.ts';
import { bundleSearchClient } from '../search/bundle.ts';
import { type AnalyzedDocument, analyzeDocument } from '../search/documents.ts';
import { documentFromContract, type Expansions, writeStaticSearch } from '../search/index.ts';
import { emptyKnowledgeMemo, type KnowledgeMemo } from '../search/knowledge.ts';
import { linkUnchanged, perToolFiles } from './incremental.ts';
import { writeFiles, writeOrLink } from './write-files.ts';
import { heapCeiling } from './collect-garbage.ts';
import { type CompressStats, precompress, WORKER_OUTPUTS } from '../compress/precompress.ts';

/**
 * How far the worker's used heap may grow past what its last collection left while it builds the search
 * index (collect-garbage.ts). At 100,000 tools the worker's heap reached 421-536 MB with about 300 MB
 * live, 342-383 MB with this; a catalog whose worker heap stays under it never collects here.
 */
const SEARCH_HEAP_MARGIN_BYTES = 96 * 1024 * 1024;
/** Kept across the worker's builds: the next one measures from its last collection. */
const boundHeap = heapCeiling(SEARCH_HEAP_MARGIN_BYTES);
const SEARCH_PAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../site/search/index.html');

export interface WorkerJob {
  buildDir: string;
  baseUrl: string;
  /** All tools in reliability order. */
  tools: ToolContract[];
  /** The listed ones (isListable), in the same order: the listings and the static search. */
  listed: ToolContract[];
  /** Aids whose own files must be written (all of them in a full build). */
  render: string[] | null;
  /** Link the other tools' JSON from `prevDir` (false: the folder taken over already holds it). */
  linkUnchanged?: boolean;
  /** Served web-API manifests: each becomes /api/v1/services/<name>/mai-api.json. */
  apis: ServedManifest[];
  /**
   * Each served API's gzipped recipes file (null for none), as [service_name, bytes] pairs: each gets
   * its static operation files, linked from the recipe store `recipeStore`.
   */
  recipes: [string, Uint8Array | null][];
  recipeStore: string;
  /** Topic words per service (knowledge.ts serviceTopics of the API manifests), as [key, words] pairs. */
  services?: [string, string[]][];
  /** The build this one is incremental to, or null for a full build. */
  prevDir: string | null;
}

export interface WorkerResult {
  phases: Record<string, number>;
  recipes: RecipeLinkStats;
  compressed: CompressStats;
}

function* staticJsonFiles(job: WorkerJob): Generator<OutputFile> {
  yield* listingFiles(job.listed, job.baseUrl);
  const render = job.render ? new Set(job.render) : null;
  for (const t of job.tools) if (!render || render.has(t.identity.aid)) yield contractFile(t, job.baseUrl);
}

export async function runJob(job: WorkerJob): Promise<WorkerResult> {
  const phases: Record<string, number> = {};
  if (job.prevDir && job.render && job.linkUnchanged !== false) {
    const l = performance.now();
    const render = new Set(job.render);
    linkUnchanged(
      { dir: job.prevDir },
      job.buildDir,
      job.tools.map((t) => t.identity.aid).filter((a) => !render.has(a)),
      'json',
    );
    phases['link-json'] = Math.round(performance.now() - l);
  }
  const t = performance.now();
  await writeFiles(job.buildDir, staticJsonFiles(job), job.prevDir);
  phases['static-json'] = Math.round(performance.now() - t);
  const a = performance.now();
  await writeManifestFiles(job.buildDir, job.apis, job.prevDir);
  phases['api-json'] = Math.round(performance.now() - a);
  const r = performance.now();
  // A structured clone hands Buffers over as plain Uint8Arrays.
  const bytes = new Map(job.recipes.map(([name, b]) => [name, b && Buffer.from(b.buffer, b.byteOffset, b.byteLength)]));
  const recipes = await linkRecipeFiles(job.buildDir, job.recipeStore, bytes);
  phases['api-recipes'] = Math.round(performance.now() - r);
  const s = performance.now();
  await writeSearch(job);
  phases.search = Math.round(performance.now() - s);
  // Its own files' .br and .gz, while the main thread is still rendering HTML (build/compress/).
  const c = performance.now();
  // Unchanged tools' JSON came with its copies (linked or taken over): only the new files are named.
  const compressed = await precompress(
    job.buildDir,
    job.prevDir,
    job.prevDir && job.render
      ? { only: WORKER_OUTPUTS, skip: [STATIC_TOOLS_DIR], files: job.render.map((aid) => perToolFiles(aid).json) }
      : { only: WORKER_OUTPUTS },
  );
  phases['compress-json'] = Math.round(performance.now() - c);
  return { phases, recipes, compressed };
}

/**
 * What this worker computed for the last build it made. A persistent worker serves many incremental
 * builds; for one that follows its own previous build, unchanged documents keep their analysis, the
 * expansion table stays as learned (the API engine loaded the same table at start), and the bundled
 * client (same code, same process) is reused. What the catalog knowledge works out per entry from its
 * name and summary alone is kept across incremental builds (not after a full one: 100,000 entries' worth).
 */
const memo: {
  buildDir: string | null;
  analyzed: Map<string, AnalyzedDocument>;
  expansions: Expansions | null;
  bundle: Buffer | null;
  knowledge: KnowledgeMemo;
} = {
  buildDir: null,
  analyzed: new Map(),
  expansions: null,
  bundle: null,
  knowledge: emptyKnowledgeMemo(),
};

/** The static search: lunr shards of the listable tools, the bundled client and its page. */
async function writeSearch(job: WorkerJob): Promise<void> {
  const dir = path.join(job.buildDir, 'search');
  // Files the previous build holds with the same bytes are linked (write-files.ts writeOrLink).
  const prev = job.prevDir ? path.join(job.prevDir, 'search') : null;
  const follows = job.prevDir !== null && job.prevDir === memo.buildDir;
  const fresh = new Set(job.render ?? []);
  const docs = job.listed.map(documentFromContract);
  // The clone of every contract is this thread's largest object, and nothing after this needs it: let
  // go before the index is built (at 100,000 tools both would otherwise be held at once). The documents
  // are this function's own, so they go when it returns.
  job.tools = [];
  job.listed = [];
  // Freed, not just dropped: V8 would otherwise build the index in new pages on top of the clone's and
  // keep both (collect-garbage.ts). Checked again before each file of the index: writing the term
  // shards makes most of the index's garbage.
  boundHeap();
  const analyzed = docs.map((d) => {
    const kept = follows && !fresh.has(d.id) ? memo.analyzed.get(d.id) : undefined;
    return kept ?? analyzeDocument(d);
  });
  const summary = writeStaticSearch(docs, dir, {
    analyzed,
    services: new Map(job.services ?? []),
    ...(follows && memo.expansions ? { expansions: memo.expansions } : {}),
    ...(job.prevDir ? { memo: memo.knowledge } : {}),
    writeFile: (rel, text) => {
      writeOrLink(dir, rel, text, prev);
      boundHeap();
    },
  });
  memo.buildDir = job.buildDir;
  if (!job.prevDir) memo.knowledge = emptyKnowledgeMemo();
  // Kept for the next incremental build; a full build (the CLI's, or a server's first) keeps none, so
  // 100,000 analyses are not held while both threads compress.
  memo.analyzed = job.prevDir ? new Map(docs.map((d, i) => [d.id, analyzed[i] as AnalyzedDocument])) : new Map();
  memo.expansions = summary.expansions;
  const client = path.join(dir, 'search.js');
  if (memo.bundle) writeOrLink(dir, 'search.js', memo.bundle, prev);
  else {
    await bundleSearchClient(client);
    memo.bundle = readFileSync(client);
  }
  const page = readFileSync(SEARCH_PAGE, 'utf8').replace(
    '<link rel="canonical" href="/search/">',
    `<link rel="canonical" href="${job.baseUrl}/search/">`,
  );
  writeOrLink(dir, 'index.html', page, prev);
}

type Reply = { id: number; ok: true; result: WorkerResult } | { id: number; ok: false; error: string };

/**
 * One long-lived worker runs the jobs in order (starting a thread and loading the search code costs
 * about a second per build). It is unref'd while idle so it never keeps a process alive.
 */
let shared: {
  worker: Worker;
  pending: Map<number, { resolve: (r: WorkerResult) => void; reject: (e: Error) => void }>;
} | null = null;
let nextId = 0;

function sharedWorker() {
  if (shared) return shared;
  const worker = new Worker(new URL('./worker-tasks.ts', import.meta.url), { workerData: { buildWorker: true } });
  const state = {
    worker,
    pending: new Map<number, { resolve: (r: WorkerResult) => void; reject: (e: Error) => void }>(),
  };
  const fail = (error: Error) => {
    if (shared === state) shared = null;
    for (const p of state.pending.values()) p.reject(error);
    state.pending.clear();
  };
  worker.on('message', (m: Reply) => {
    const p = state.pending.get(m.id);
    if (!p) return;
    state.pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(m.error));
    if (state.pending.size === 0) worker.unref();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`build worker exited with ${code}`)));
  shared = state;
  return state;
}

/** Runs the job on the build worker thread; resolves with its phase timings, rejects with its error. */
export function runJobInWorker(job: WorkerJob): Promise<WorkerResult> {
  const { worker, pending } = sharedWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.ref();
    worker.postMessage({ id, job });
  });
}

// Only in the thread started above: this module is also imported by other workers (the API's rebuild thread).
if (parentPort && (workerData as { buildWorker?: boolean } | null)?.buildWorker === true) {
  const port = parentPort;
  let queue = Promise.resolve();
  port.on('message', ({ id, job }: { id: number; job: WorkerJob }) => {
    queue = queue.then(() =>
      runJob(job).then(
        (result) => port.postMessage({ id, ok: true, result }),
        (error: Error) => port.postMessage({ id, ok: false, error: error.stack ?? String(error) }),
      ),
    );
  });
}
