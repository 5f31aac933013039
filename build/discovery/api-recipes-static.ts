// The operation recipes as static files, so a CDN answers an API's whole operation list and each recipe
// without the server: `api/v1/services/<name>/operations.json.gz` (the list document the API answers for
// GET /api/v1/services/{name}/operations, every operation on one page) and `operations/<id>.json.gz` (what
// GET …/operations/{id} answers), gzip only: the API server sends them as they are to a client that takes
// gzip and unpacks them for one that does not (api/http/static.ts); the CDN gets the same from _headers.
//
// All 124,500 recipes are 144 MB of JSON. Writing and compressing that in every build would cost the build
// more than everything else together, so each API's recipes file is unpacked once, already gzipped, into a
// content-addressed store beside the builds (`<dist>.recipes/<name>-<hash of its file>/`), and a build links
// it with two symlinks per API. An entry never changes once made (a new recipes file is a new hash), so a
// build that points at it stays complete and atomic; entries no build points at are removed later.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { parseOperationsFile, type Recipe } from '../apis/recipe-schema.ts';

const gzip = promisify(zlib.gzip);

export const SERVICES_DIR = 'api/v1/services';
export const OPERATIONS_LIST_FILE = 'operations.json.gz';
export const OPERATIONS_DIR = 'operations';
/** Suffix of one recipe's file: `<operation id>.json.gz` (ids are snake_case, so never a dot in them). */
export const RECIPE_SUFFIX = '.json.gz';

export const recipesStoreOf = (distDir: string) => `${distDir}.recipes`;

/** The list document: a page of the API's answer, or (the static copy) every operation on one page. */
export function operationPage(serviceName: string, q: string, matching: Recipe[], limit: number, offset: number) {
  const results = matching.slice(offset, offset + limit);
  return { service_name: serviceName, query: q, total: matching.length, offset, count: results.length, results };
}

/** The static list: what GET /api/v1/services/{name}/operations answers, with every operation on its one page. */
export const operationsListDocument = (serviceName: string, recipes: Recipe[]) =>
  operationPage(serviceName, '', recipes, recipes.length, 0);

/** The store entry of one recipes file: its service name and the first 16 hex digits of its sha256. */
export const entryName = (serviceName: string, gzipped: Uint8Array | null) =>
  `${serviceName}-${createHash('sha256')
    .update(gzipped ?? new Uint8Array())
    .digest('hex')
    .slice(0, 16)}`;

const exists = (p: string) =>
  fsp.lstat(p).then(
    () => true,
    () => false,
  );

/** Files gzipped at once per entry (zlib's async calls run on libuv's thread pool). */
const PARALLEL_GZIP = 16;
/** Recipes files unpacked at once (each parses its JSON on this thread). */
const PARALLEL_ENTRIES = 4;

/** Unpacks one recipes file into the store (once: an existing entry is kept as it is); answers whether it did. */
async function ensureEntry(store: string, serviceName: string, gzipped: Buffer | null): Promise<boolean> {
  const entry = path.join(store, entryName(serviceName, gzipped));
  if (await exists(entry)) return false;
  const recipes = gzipped ? ((parseOperationsFile(gzipped) as { operations?: Recipe[] }).operations ?? []) : [];
  // Made aside and renamed into place: a build never links a half-written entry.
  const tmp = path.join(store, `.${path.basename(entry)}.${randomBytes(4).toString('hex')}.tmp`);
  await fsp.mkdir(path.join(tmp, OPERATIONS_DIR), { recursive: true });
  try {
    const files: [string, string][] = [
      [OPERATIONS_LIST_FILE, JSON.stringify(operationsListDocument(serviceName, recipes))],
      ...recipes.map((r): [string, string] => [
        path.join(OPERATIONS_DIR, `${r.id}${RECIPE_SUFFIX}`),
        JSON.stringify(r),
      ]),
    ];
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const [name, text] = files[next++] as [string, string];
        await fsp.writeFile(path.join(tmp, name), await gzip(text, { level: 9 }));
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_GZIP }, worker));
    await fsp.rename(tmp, entry).catch(async (error: NodeJS.ErrnoException) => {
      // Another build made the same entry meanwhile: the same bytes, keep theirs.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await fsp.rm(tmp, { recursive: true, force: true });
    });
  } catch (error) {
    await fsp.rm(tmp, { recursive: true, force: true });
    throw error;
  }
  return true;
}

export interface RecipeLinkStats {
  apis: number;
  /** Entries unpacked by this build (recipes files no earlier build had seen). */
  unpacked: number;
}

/**
 * Gives every API of `recipes` (service name → its gzipped recipes file, null for none) its static list and
 * recipe files in `buildDir`, as symlinks into `store` (recipesStoreOf the dist folder).
 */
export async function linkRecipeFiles(
  buildDir: string,
  store: string,
  recipes: ReadonlyMap<string, Buffer | null>,
): Promise<RecipeLinkStats> {
  await fsp.mkdir(store, { recursive: true });
  const services = path.join(buildDir, SERVICES_DIR);
  await fsp.mkdir(services, { recursive: true });
  const names = [...recipes.keys()];
  const stats: RecipeLinkStats = { apis: names.length, unpacked: 0 };
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++] as string;
      const gzipped = recipes.get(name) ?? null;
      if (await ensureEntry(store, name, gzipped)) stats.unpacked++;
      const dir = path.join(services, name);
      await fsp.mkdir(dir, { recursive: true });
      // Relative links: the builds and the store can move together (a copy with `cp -r`, or `cp -rL` to
      // resolve them for a CDN upload tool that does not follow links).
      const target = path.relative(dir, path.join(store, entryName(name, gzipped)));
      await Promise.all([
        fsp.symlink(path.join(target, OPERATIONS_DIR), path.join(dir, OPERATIONS_DIR), 'dir'),
        fsp.symlink(path.join(target, OPERATIONS_LIST_FILE), path.join(dir, OPERATIONS_LIST_FILE), 'file'),
      ]);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_ENTRIES }, worker));
  return stats;
}

/**
 * Removes the store entries no build folder links to (the current build, the one kept before it, or one
 * being written), once they are older than `minAgeMs`: a build in progress links an entry right after
 * making it, so a young entry may belong to a build not scanned yet.
 */
export async function pruneRecipeStore(distDir: string, buildsDir: string, minAgeMs = 10 * 60_000): Promise<number> {
  const store = recipesStoreOf(distDir);
  const entries = await fsp.readdir(store).catch(() => [] as string[]);
  if (entries.length === 0) return 0;
  const used = new Set<string>();
  for (const build of await fsp.readdir(buildsDir).catch(() => [] as string[])) {
    const services = path.join(buildsDir, build, SERVICES_DIR);
    for (const name of await fsp.readdir(services).catch(() => [] as string[])) {
      const link = await fsp.readlink(path.join(services, name, OPERATIONS_LIST_FILE)).catch(() => null);
      if (link) used.add(path.basename(path.dirname(link)));
    }
  }
  let removed = 0;
  const now = Date.now();
  for (const entry of entries) {
    if (used.has(entry)) continue;
    const stat = await fsp.stat(path.join(store, entry)).catch(() => null);
    if (!stat || now - stat.mtimeMs < minAgeMs) continue;
    await fsp.rm(path.join(store, entry), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
