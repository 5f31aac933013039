// catalog → dist: loads and validates the catalog, writes every artifact into a fresh folder, then swaps
// dist/ to it atomically. A failed or interrupted build leaves the previous dist/ serving.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { loadApiSnapshot } from '../catalog/api-snapshot.ts';
import { API_PAGE_PATHS, apiPagesData } from './api-site-data.ts';
import { type CatalogStore, catalogStoreFor } from '../catalog/catalog-store.ts';
import type { ToolContract } from '../model/contract.ts';
import { AGENT_DOCUMENT_PATHS, agentDocument } from '../discovery/agent-document.ts';
import { pruneRecipeStore, recipesStoreOf } from '../discovery/api-recipes-static.ts';
import { servedManifest } from '../discovery/api-static.ts';
import { hostConfigFiles } from '../discovery/host-config.ts';
import { schemaFiles } from '../model/json-schemas.ts';
import { llmsFiles } from '../discovery/llms-txt.ts';
import { robotsTxt } from '../discovery/robots.ts';
import { type OutputFile, sitemapFiles } from '../discovery/sitemap.ts';
import { addStats, precompress, WORKER_OUTPUTS } from '../compress/precompress.ts';
import { BUILD_INFO, buildsDirOf, createBuildDir, currentBuildDir, pruneBuilds, swapIn } from './dist-swap.ts';
import { linkUnchanged, perToolFiles, reusableBuild, toRender } from './incremental.ts';
import { adoptToolFiles, type Lineage } from './adopt-tool-files.ts';
import { renderSite } from './site.ts';
import { siteData } from './site-data.ts';
import { runJobInWorker } from './worker-tasks.ts';
import { isListable } from '../model/views.ts';
import { writeFiles } from './write-files.ts';
import { loadSnapshot, type Snapshot } from '../catalog/snapshot.ts';
import { serviceTopics } from '../search/knowledge.ts';

/** How this process's last successful build of each dist/ was made (adopt-tool-files.ts). */
const lineages = new Map<string, Lineage>();

export interface BuildOptions {
  catalogDir: string;
  distDir: string;
  baseUrl: string;
  /** Origin the CDN config proxies dynamic paths to; defaults to baseUrl. */
  apiOrigin?: string;
  /** STORAGE_URL: with redis://, read the catalog as the API serves it (admin writes in Redis over the files). */
  storageUrl?: string;
  /** Use this snapshot instead of reading the catalog (benchmarks, the API's rebuilds). */
  snapshot?: Snapshot;
  /**
   * Incremental build: only these tools changed since the current build (removed ones need not be
   * listed). Every other tool's page and JSON are linked from the current build. Absent = full build.
   */
  changedAids?: Iterable<string>;
  log?: (line: string) => void;
}

export interface BuildResult {
  buildDir: string;
  toolsCount: number;
  apisCount: number;
  files: number;
  ms: number;
  phases: Record<string, number>;
  incremental: boolean;
  /** Settles when old builds are removed (in the background; awaited only by tests and tools). */
  pruned: Promise<void>;
}

export class CatalogInvalidError extends Error {
  readonly errors: string[];
  constructor(errors: string[]) {
    super(`catalog has ${errors.length} error(s):\n${errors.slice(0, 50).join('\n')}`);
    this.errors = errors;
  }
}

export interface DiscoveryInput {
  tools: ToolContract[];
  /** The tools that are listed (isListable), in reliability order: llms.txt names only these. */
  listed: ToolContract[];
  apisCount: number;
  baseUrl: string;
  generatedAt: string;
  apiOrigin: string;
  /** Paths of the HTML index pages (`/`, `/page/2/` ...). */
  indexPaths: string[];
}

export function discoveryFiles({
  tools,
  listed,
  apisCount,
  baseUrl,
  generatedAt,
  apiOrigin,
  indexPaths,
}: DiscoveryInput): OutputFile[] {
  const agent = JSON.stringify(agentDocument({ baseUrl, toolsCount: tools.length, apisCount, generatedAt }), null, 2);
  const urls = [
    ...indexPaths.map((p) => `${baseUrl}${p}`),
    `${baseUrl}/search/`,
    ...tools.map((t) => `${baseUrl}/tools/${t.identity.aid}/`),
  ];
  return [
    ...AGENT_DOCUMENT_PATHS.map((p) => ({ path: p, content: agent })),
    { path: 'robots.txt', content: robotsTxt(baseUrl) },
    ...llmsFiles(listed, baseUrl),
    ...sitemapFiles(urls, baseUrl, generatedAt),
    ...hostConfigFiles(apiOrigin),
  ];
}

/** Each served API's gzipped recipes file as the store holds it (null when it has none). */
async function readRecipes(store: CatalogStore, served: readonly { service_name: string }[]) {
  const out = new Map<string, Buffer | null>();
  let next = 0;
  const worker = async () => {
    while (next < served.length) {
      const name = (served[next++] as { service_name: string }).service_name;
      out.set(name, await store.readOperations(name));
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return out;
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const phases: Record<string, number> = {};
  const phase = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    phases[name] = Math.round(performance.now() - t);
    log(`${name}: ${phases[name]} ms`);
    return out;
  };

  const store = catalogStoreFor({ catalogDir: options.catalogDir, storageUrl: options.storageUrl });
  const [snapshot, apis, recipes] = await phase('load', async () => {
    const [snapshot, apis] = await Promise.all([options.snapshot ?? loadSnapshot(store), loadApiSnapshot(store)]);
    return [snapshot, apis, await readRecipes(store, apis.served)] as const;
  }).finally(() => store.storage.dispose());
  // A given snapshot (the API's live rebuilds) was already filtered by its loader: a bad API file is
  // skipped there too, as the server skips it, rather than stopping every rebuild until someone fixes it.
  if (options.snapshot) for (const e of apis.errors) log(`skipped: ${e}`);
  const errors = [...snapshot.errors, ...(options.snapshot ? [] : apis.errors)];
  if (errors.length) throw new CatalogInvalidError(errors);
  const { tools } = snapshot;
  const generatedAt = new Date().toISOString();
  const baseUrl = options.baseUrl;
  const apisCount = apis.served.length;

  // What the listings (llms.txt, static tools.json / trending.json, static search) show, as the API lists.
  const listed = tools.filter(isListable);
  const prev = options.changedAids ? await reusableBuild(await currentBuildDir(options.distDir), baseUrl) : null;
  const distKey = path.resolve(options.distDir);
  const last = lineages.get(distKey);
  // Whatever this build does to the folders `last` names, it is not that lineage any more.
  lineages.delete(distKey);
  const buildDir = await createBuildDir(options.distDir);
  try {
    // Which tools need their own page and JSON written: all of them, or the changed and the new ones.
    const changed = new Set(options.changedAids);
    const render = prev ? toRender(prev, tools, changed) : tools;
    const toolAids = prev ? new Set(render.map((t) => t.identity.aid)) : undefined;
    const aids = tools.map((t) => t.identity.aid);
    // Before the worker writes its JSON into the folder taken over.
    const adopted =
      prev && toolAids && last?.dir === prev.dir
        ? await phase('adopt', () => adoptToolFiles(last, buildDir, aids, toolAids))
        : false;
    // Contract-only artifacts (static JSON, search) on the second core while this thread links the
    // unchanged tools' files and Eleventy renders HTML. `listed` holds the same objects as `tools`,
    // which the structured clone sends once.
    const side = runJobInWorker({
      buildDir,
      baseUrl,
      tools,
      listed,
      render: toolAids ? [...toolAids] : null,
      linkUnchanged: !adopted,
      apis: apis.served.map(servedManifest),
      // The API engine adds the same topics (api/services/tool-search.ts), so both searches rank alike.
      services: [...serviceTopics(apis.served)],
      // Symlinked from the recipe store, unpacking only recipes files no build has seen.
      recipes: [...recipes],
      recipeStore: recipesStoreOf(options.distDir),
      prevDir: prev?.dir ?? null,
    });
    side.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile
    // After the worker has its job: it needs nothing of this.
    const site = siteData(tools, baseUrl, apiPagesData(apis.served, baseUrl), render);
    const indexPaths = [...site.indexPages.map((p) => p.path), ...API_PAGE_PATHS];
    if (prev && !adopted)
      await phase('link', async () =>
        linkUnchanged(
          prev,
          buildDir,
          aids.filter((a) => !toolAids?.has(a)),
          'html',
        ),
      );
    const discovery = discoveryFiles({
      tools,
      listed,
      apisCount,
      baseUrl,
      generatedAt,
      apiOrigin: options.apiOrigin ?? baseUrl,
      indexPaths,
    });
    await phase('discovery', async () => writeFiles(buildDir, [...discovery, ...schemaFiles()], prev?.dir ?? null));
    const pages = await phase('html', () => renderSite(site, buildDir));
    // .br and .gz beside each compressible file (build/compress/): here those of this thread, while the
    // worker compresses its own. Unchanged tools' pages came with their copies: only new pages are named.
    const own = await phase('compress', () =>
      precompress(
        buildDir,
        prev?.dir ?? null,
        prev
          ? { skip: [...WORKER_OUTPUTS, 'tools'], files: render.map((t) => perToolFiles(t.identity.aid).html) }
          : { skip: WORKER_OUTPUTS },
      ),
    );
    const worker = await phase('worker-wait', () => side);
    Object.assign(phases, worker.phases);
    const compressed = addStats(own, worker.compressed);
    const recipeStats = worker.recipes;
    const ms = Math.round(performance.now() - started);
    const info = {
      generated_at: generatedAt,
      base_url: baseUrl,
      api_origin: options.apiOrigin ?? baseUrl,
      tools_count: tools.length,
      apis_count: apisCount,
      build_ms: ms,
      incremental: Boolean(prev),
      rendered_tools: render.length,
      api_recipes: { apis: recipeStats.apis, unpacked: recipeStats.unpacked },
      compressed: {
        files: compressed.files,
        linked: compressed.linked,
        bytes: compressed.bytes,
        br_bytes: compressed.brBytes,
        gz_bytes: compressed.gzBytes,
      },
    };
    await fsp.writeFile(path.join(buildDir, BUILD_INFO), `${JSON.stringify(info, null, 2)}\n`);
    await phase('swap', () => swapIn(options.distDir, buildDir));
    // Deleting an old build (tens of thousands of files) must not delay this write's visibility or the
    // next build: it runs in the background and only ever touches folders other than the current one.
    const pruned = pruneBuilds(options.distDir)
      .then(() => pruneRecipeStore(options.distDir, buildsDirOf(options.distDir)))
      .then(
        () => undefined,
        () => undefined,
      );
    if (prev && toolAids) lineages.set(distKey, { dir: buildDir, base: prev.dir, rendered: toolAids, pruned });
    return {
      pruned,
      buildDir,
      toolsCount: tools.length,
      apisCount,
      files: pages + render.length + apisCount,
      ms,
      phases,
      incremental: Boolean(prev),
    };
  } catch (error) {
    await fsp.rm(buildDir, { recursive: true, force: true });
    throw error;
  }
}
