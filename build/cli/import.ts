// npm run import -- --from npm|pypi|github|mcp-registry [--top N | NAMES...] [options]
// Bulk import on the translate code (build/translate): contracts written through the catalog store, new and
// changed ones queued for verification (build/verify/queue). Exit 0 when the run finished (some items may have
// failed: the summary lists them), 1 when it could not run (listing failed), 2 on a usage error.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { catalogStoreFor } from '../catalog/catalog-store.ts';
import { loadConfig } from '../config.ts';
import { DEFAULT_RETRY } from '../import/cached-fetch.ts';
import { runImport } from '../import/run-import.ts';
import { IMPORT_SOURCES, type ImportSource, SelectionError } from '../import/sources.ts';
import { upstreamConfig } from '../translate/upstream-fetch.ts';
import { openVerifyQueue } from '../verify/queue/open.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run import -- --from npm|pypi|github|mcp-registry [--top N | NAMES...] [options]
Translates packages (npm, PyPI), repositories (github: owner/repo) or MCP registry servers into contracts,
exactly as POST /api/v1/translate does, writes the valid ones into the catalog and queues new and changed
ones for verification. Names, or --top N: the N most downloaded npm/PyPI packages of the bundled corpus, or
the first N servers of the MCP registry's list.
  --top N             how many (instead of NAMES)
  --overwrite         replace hand-written task, tags, commands and schemas of existing contracts
  --concurrency N     items at a time (default 4)
  --retries N         retries after a 429, 5xx or network failure (default ${DEFAULT_RETRY.retries}; backoff with jitter,
                      Retry-After honoured)
  --retry-base-ms MS  first backoff (default ${DEFAULT_RETRY.baseDelayMs})
  --timeout-ms MS     per request (default 10000)
  --registry URL      the source's registry (npm registry, PyPI, GitHub API or MCP registry); env NPM_REGISTRY_URL,
                      PYPI_URL, GITHUB_API_URL, MCP_REGISTRY_URL
  --downloads-url URL npm downloads API (popularity); env NPM_DOWNLOADS_URL
  --catalog DIR       catalog folder (default CATALOG_DIR)
  --cache DIR         conditional-request cache (default DATA_DIR/import-cache)
  --state FILE        resume file (default DATA_DIR/import-<source>.state)
  --json              print the summary as JSON on stdout
Contracts are written through the catalog store (the Redis overlay under STORAGE_URL); a running server serves
them after its next rebuild (npm run build, or a restart).
Progress goes to stderr: a bar on a terminal, one line per item otherwise.
Exit 0 when the run finished (failed items are listed), 1 when it could not run, 2 on a usage error.
`);

function usage(message: string): never {
  console.error(`${message} (npm run import -- --help)`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      top: { type: 'string' },
      overwrite: { type: 'boolean' },
      concurrency: { type: 'string' },
      retries: { type: 'string' },
      'retry-base-ms': { type: 'string' },
      'timeout-ms': { type: 'string' },
      registry: { type: 'string' },
      'downloads-url': { type: 'string' },
      catalog: { type: 'string' },
      cache: { type: 'string' },
      state: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
}
try {
  parsed = parse();
} catch (error) {
  usage((error as Error).message);
}
const { values: v, positionals } = parsed;

const from = v.from as ImportSource;
if (!IMPORT_SOURCES.includes(from)) usage(`--from must be one of ${IMPORT_SOURCES.join(', ')}`);
const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) usage(`--${name} must be an integer from ${min} to ${max}`);
  return n;
};
if ((v.top === undefined) === (positionals.length === 0)) usage('give either --top N or names');
if (v.top !== undefined && from === 'github') usage('--top needs download figures: for github give owner/repo names');
const selection = v.top !== undefined ? { top: int('top', v.top, 0, 1, 100_000) } : { names: positionals };
const concurrency = int('concurrency', v.concurrency, 4, 1, 32);
const retries = int('retries', v.retries, DEFAULT_RETRY.retries, 0, 10);
const baseDelayMs = int('retry-base-ms', v['retry-base-ms'], DEFAULT_RETRY.baseDelayMs, 0, 60_000);
const timeoutMs = int('timeout-ms', v['timeout-ms'], 10_000, 100, 120_000);

const config = loadConfig();
const base = upstreamConfig();
const registry = v.registry?.replace(/\/+$/, '');
const field = { npm: 'npmRegistry', pypi: 'pypi', github: 'githubApi', 'mcp-registry': 'mcpRegistry' } as const;
const cfg = {
  ...base,
  ...(registry ? { [field[from]]: registry } : {}),
  ...(v['downloads-url'] ? { npmDownloads: v['downloads-url'].replace(/\/+$/, '') } : {}),
  // The hosts are the operator's (flags and environment), never a caller's: a private mirror is fine.
  allowPrivate: true,
  timeoutMs,
};
const catalogDir = v.catalog ? path.resolve(v.catalog) : config.catalogDir;
// Under STORAGE_URL=redis:// the writes go to the overlay the servers read, and are announced to them.
const store = catalogStoreFor(
  { catalogDir, storageUrl: config.storageUrl },
  { label: path.relative(process.cwd(), catalogDir) || 'catalog' },
);
process.once('SIGINT', () => {
  console.error(`\nimport ${from} interrupted: run the same command again to resume`);
  process.exit(130);
});
const queue = openVerifyQueue(config.dataDir);

try {
  const summary = await runImport({
    from,
    selection,
    store,
    queue,
    cfg,
    cacheDir: v.cache ? path.resolve(v.cache) : path.join(config.dataDir, 'import-cache'),
    stateFile: v.state ? path.resolve(v.state) : path.join(config.dataDir, `import-${from}.state`),
    retry: { ...DEFAULT_RETRY, retries, baseDelayMs },
    concurrency,
    overwrite: Boolean(v.overwrite),
  });
  if (v.json) console.log(JSON.stringify(summary));
  else {
    const s = summary;
    console.log(
      `import ${from}: ${s.total} items in ${(s.ms / 1000).toFixed(1)} s: new ${s.new.length}, updated ${s.updated.length}, ` +
        `unchanged ${s.unchanged.length}, failed ${s.failed.length}${s.resumed ? ` (${s.resumed} done by the interrupted run)` : ''}; ` +
        `queued for verification ${s.queued}; requests ${s.fetch.requests} (${s.fetch.notModified} not modified, ${s.fetch.retries} retries)`,
    );
    for (const f of s.failed) console.log(`  failed ${f.key}: ${f.reason}`);
  }
} catch (error) {
  console.error(
    `import ${from} could not run: ${error instanceof SelectionError || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
} finally {
  await queue.close();
  await store.storage.dispose();
}
