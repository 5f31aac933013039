// One import run: select the items, translate each (build/translate, through the cached retrying fetch),
// keep what people wrote, validate, write through the catalog store, queue new and changed contracts for
// verification, and remember each finished item so an interrupted run resumes. Items run a few at a time
// (p-limit): registries rate-limit, and the retries back off per request.
import pLimit from 'p-limit';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ToolContract } from '../model/contract.ts';
import { validateContract } from '../model/validate-contract.ts';
import type { VerifyQueue } from '../verify/queue/types.ts';
import { contractFrom, existingFor, type KnownContracts } from '../translate/index.ts';
import type { UpstreamConfig } from '../translate/upstream-fetch.ts';
import { createCachedFetch, type FetchStats, type RetryPolicy } from './cached-fetch.ts';
import { createImportProgress, type ImportProgress } from './import-progress.ts';
import { type ItemResult, openImportState, runKey } from './import-state.ts';
import { keepHandWritten, sameContract } from './keep-hand-written.ts';
import { type ImportSource, selectItems } from './sources.ts';

export interface ImportOptions {
  from: ImportSource;
  selection: { names: string[] } | { top: number };
  store: CatalogStore;
  queue: VerifyQueue;
  cfg: UpstreamConfig;
  cacheDir: string;
  stateFile: string;
  retry: RetryPolicy;
  concurrency: number;
  /** Replace hand-written fields (task, tags, commands, schemas) with the registry's. */
  overwrite: boolean;
  progress?: (total: number) => ImportProgress;
}

export interface ImportSummary {
  from: ImportSource;
  total: number;
  new: string[];
  updated: string[];
  unchanged: string[];
  failed: { key: string; reason: string }[];
  /** Items an interrupted run had finished, not done again. */
  resumed: number;
  /** Contracts queued for verification by this run. */
  queued: number;
  fetch: FetchStats;
  ms: number;
}

async function knownContracts(store: CatalogStore): Promise<KnownContracts & { byAid: Map<string, ToolContract> }> {
  const byAid = new Map<string, ToolContract>();
  for (const f of await store.readAll('tools')) {
    const c = f.value as ToolContract | undefined;
    if (c?.identity?.aid && c.action) byAid.set(c.identity.aid, c);
  }
  return {
    byAid,
    get tools() {
      return [...byAid.values()];
    },
  };
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runImport(o: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const { fetchJson, stats } = createCachedFetch(o.cfg, o.cacheDir, o.retry);
  const cfg: UpstreamConfig = { ...o.cfg, fetchJson };
  const items = await selectItems(o.from, o.selection, cfg);
  const selection = 'names' in o.selection ? o.selection.names.join('\n') : `top ${o.selection.top}`;
  const state = await openImportState(o.stateFile, runKey(`${o.from}${o.overwrite ? ' overwrite' : ''}`, selection));
  const known = await knownContracts(o.store);
  const progress = (o.progress ?? createImportProgress)(items.length);
  const results: ItemResult[] = [];
  let queued = 0;
  let resumed = 0;

  const one = async (key: string, draftOf: () => ReturnType<(typeof items)[number]['draft']>): Promise<ItemResult> => {
    let draft: Awaited<ReturnType<typeof draftOf>>;
    try {
      draft = await draftOf();
    } catch (error) {
      return { key, outcome: 'failed', reason: reasonOf(error) };
    }
    const existing = existingFor(known, draft.source_url, draft.aid);
    const translated = contractFrom(draft, existing);
    const next = o.overwrite ? translated : keepHandWritten(translated, existing);
    const aid = next.identity.aid;
    const errors = validateContract(next);
    if (errors.length) {
      const reason = `not a valid contract: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`;
      return { key, outcome: 'failed', aid, reason: reason.slice(0, 500) };
    }
    if (existing && sameContract(next, existing)) return { key, outcome: 'unchanged', aid };
    // Queued before the write: a kill between the two leaves a job for a contract that is about to change,
    // never a changed contract nobody verifies.
    const { queued: added } = await o.queue.enqueue([aid], 'import');
    queued += added;
    try {
      await o.store.write('tools', aid, next);
    } catch (error) {
      return { key, outcome: 'failed', aid, reason: `could not write: ${reasonOf(error)}` };
    }
    known.byAid.set(aid, next);
    return { key, outcome: existing ? 'updated' : 'new', aid };
  };

  const limit = pLimit(o.concurrency);
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        const before = state.done.get(item.key);
        const result = before ?? (await one(item.key, () => item.draft(cfg)));
        if (before) resumed++;
        else await state.record(result);
        results.push(result);
        progress.item(result);
      }),
    ),
  );
  progress.done();
  await state.finish();
  const pick = (outcome: ItemResult['outcome']) =>
    results.filter((r) => r.outcome === outcome).map((r) => r.aid ?? r.key);
  return {
    from: o.from,
    total: items.length,
    new: pick('new'),
    updated: pick('updated'),
    unchanged: pick('unchanged'),
    failed: results.filter((r) => r.outcome === 'failed').map((r) => ({ key: r.key, reason: r.reason ?? 'failed' })),
    resumed,
    queued,
    fetch: stats,
    ms: Math.round(performance.now() - started),
  };
}
