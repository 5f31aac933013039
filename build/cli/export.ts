// npm run export [-- --clear]: writes the admin writes kept in Redis (STORAGE_URL=redis://, the catalog
// overlay) back as files under catalog/, so they can go into the repository by pull request: the
// repository stays the source of truth, Redis only holds what was written since the last export.
//   - each record is validated as `npm run validate` would; an invalid one is reported and not written;
//   - a tombstone deletes the file; every file is written atomically (temp file, fsync, rename);
//   - --clear then removes each exported key from Redis, but only if it still holds the value exported
//     (a compare-and-delete), so a write made during the export is kept for the next one.
// Servers keep serving the same content throughout: before --clear from Redis, after it from the files.
import path from 'node:path';
import { OPERATIONS_EXTENSION, OPERATIONS_FOLDER, parseOperationsFile } from '../apis/recipe-schema.ts';
import {
  type CatalogStore,
  catalogStoreFor,
  createCatalogStore,
  isSafeId,
  operationsKey,
  operationsKeyName,
  type RecordKind,
  type StoredFile,
} from '../catalog/catalog-store.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { decodeRaw, TOMBSTONE, topEntries } from '../catalog/storage/overlay-driver.ts';
import { COMPARE_AND_DELETE } from '../catalog/storage/redis-lock.ts';
import { checkApiFiles, checkOperationFiles } from '../catalog/validate-apis.ts';
import { checkToolFiles } from '../catalog/validate-catalog.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run export [-- --clear]
Writes the admin writes kept in Redis (STORAGE_URL=redis://...) back as files under CATALOG_DIR.
--clear  then removes each exported key that still holds the exported value.
`);

const KINDS: RecordKind[] = ['tools', 'apis'];

interface Exported {
  key: string;
  value: string;
}

function parsed(id: string, file: string, text: string): StoredFile {
  try {
    return { id, file, value: JSON.parse(text) };
  } catch (error) {
    return { id, file, parseError: `not valid JSON (${(error as Error).message})` };
  }
}

/**
 * One API's recipes from the overlay: checked against its manifest as `npm run validate` checks them
 * (schema, a recipe for every intent), then written as the gzipped file, or deleted for a tombstone.
 */
async function exportOperations(
  overlayStore: CatalogStore,
  files: CatalogStore,
  label: string,
  name: string,
  value: string,
): Promise<'written' | 'deleted' | 'unchanged' | 'invalid'> {
  const file = `${label}/apis/${OPERATIONS_FOLDER}/${name}${OPERATIONS_EXTENSION}`;
  if (value === TOMBSTONE) {
    if (!(await files.readOperations(name))) return 'unchanged';
    await files.storage.removeItem(operationsKey(name));
    console.log(`deleted ${file}`);
    return 'deleted';
  }
  const bytes = decodeRaw(value);
  let record: StoredFile;
  try {
    record = { id: name, file, value: parseOperationsFile(Buffer.from(bytes)) };
  } catch (error) {
    record = { id: name, file, parseError: `not valid gzipped JSON (${(error as Error).message})` };
  }
  const manifest = checkApiFiles([(await overlayStore.read('apis', name)) ?? { id: name, file, value: null }]).valid;
  const errors = checkOperationFiles([record], manifest).errors;
  if (errors.length) {
    for (const e of errors) console.error(e);
    console.error(`not exported: ${file} (invalid; fix it through the API or delete the key)`);
    return 'invalid';
  }
  if ((await files.readOperations(name))?.equals(Buffer.from(bytes))) return 'unchanged';
  await files.writeOperations(name, Buffer.from(bytes));
  console.log(`wrote ${file}`);
  return 'written';
}

async function main(): Promise<number> {
  const config = loadConfig();
  const clear = process.argv.includes('--clear');
  if (!config.storageUrl)
    throw new ConfigError('npm run export reads the catalog overlay in Redis: set STORAGE_URL=redis://host:port/db');
  const label = path.relative(process.cwd(), config.catalogDir) || 'catalog';
  const overlayStore = catalogStoreFor(config);
  const overlay = overlayStore.overlay;
  if (!overlay) throw new ConfigError('STORAGE_URL must be redis://host:port/db (or rediss://)');
  const files = createCatalogStore({ dir: config.catalogDir, label });
  const exported: Exported[] = [];
  let written = 0;
  let deleted = 0;
  let invalid = 0;
  try {
    await overlay.ready();
    for (const kind of KINDS) {
      const entries = (await topEntries(overlay.driver, `${kind}:`)).sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const { key, value } of entries) {
        const recipes = operationsKeyName(key);
        if (recipes !== null) {
          const r = await exportOperations(overlayStore, files, label, recipes, value);
          if (r === 'invalid') invalid++;
          else {
            if (r === 'written') written++;
            if (r === 'deleted') deleted++;
            exported.push({ key, value });
          }
          continue;
        }
        const id = key.slice(kind.length + 1, -'.json'.length);
        const file = `${label}/${kind}/${id}.json`;
        if (!key.endsWith('.json') || !isSafeId(id)) {
          console.log(`skipped ${key}: not a catalog record key`);
          continue;
        }
        if (value === TOMBSTONE) {
          if (await files.read(kind, id)) {
            await files.remove(kind, id);
            console.log(`deleted ${file}`);
            deleted++;
          }
          exported.push({ key, value });
          continue;
        }
        const record = parsed(id, file, value);
        const errors = (kind === 'tools' ? checkToolFiles([record]) : checkApiFiles([record])).errors;
        if (errors.length) {
          for (const e of errors) console.error(e);
          console.error(`not exported: ${file} (invalid; fix it through the API or delete the key)`);
          invalid++;
          continue;
        }
        const current = await files.read(kind, id);
        if (JSON.stringify(current?.value) !== JSON.stringify(record.value)) {
          await files.write(kind, id, record.value);
          console.log(`wrote ${file}`);
          written++;
        }
        exported.push({ key, value });
      }
    }
    let cleared = 0;
    if (clear) {
      const client = overlay.client();
      for (const e of exported)
        cleared += Number(await client.eval(COMPARE_AND_DELETE, 1, `${overlay.names.base}:${e.key}`, e.value));
    }
    const kept = clear
      ? `; cleared ${cleared} key(s) from Redis${cleared < exported.length ? ` (${exported.length - cleared} changed meanwhile, kept)` : ''}`
      : '';
    console.log(
      `export: ${written} written, ${deleted} deleted, ${exported.length - written - deleted} unchanged, ${invalid} invalid${kept}`,
    );
    if (written + deleted > 0) console.log(`review with \`git status ${label}\` and open a pull request`);
    return invalid > 0 ? 1 : 0;
  } finally {
    await overlayStore.storage.dispose();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
}
