// npm run validate [-- PATHS]: checks contract files and API manifests (catalog/apis, or any path in an
// `apis` folder); one line per error, exit 1 on any error.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { createCatalogStore, type StoredFile } from '../catalog/catalog-store.ts';
import { loadConfig } from '../config.ts';
import { checkApiFiles, checkOperationFiles } from '../catalog/validate-apis.ts';
import { OPERATIONS_EXTENSION, OPERATIONS_FOLDER, parseOperationsFile } from '../apis/recipe-schema.ts';
import { checkToolFiles } from '../catalog/validate-catalog.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run validate [-- PATH ...]
Checks contract files and API manifests; one line per error, exit 1 on any error or when the paths hold
no contract. A PATH is a file, a folder of .json files, or a catalog root (a folder with tools/ and apis/).
Without PATH: the catalog at CATALOG_DIR (default ./catalog).
`);

async function fromPaths(paths: string[]): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  for (const p of paths) {
    const stat = await fsp.stat(p).catch(() => null);
    if (stat?.isDirectory()) {
      // A catalog root (a folder holding tools/ and/or apis/): check what those hold.
      const parts = ['tools', 'apis'].map((sub) => path.join(p, sub));
      const roots = await Promise.all(
        parts.map((d) =>
          fsp.stat(d).then(
            (s) => s.isDirectory(),
            () => false,
          ),
        ),
      );
      if (roots.some(Boolean)) {
        files.push(...(await fromPaths(parts.filter((_, i) => roots[i]))));
        continue;
      }
      const names = (await fsp.readdir(p))
        .filter((n) => n.endsWith('.json') || n.endsWith(OPERATIONS_EXTENSION))
        .sort();
      files.push(...(await fromPaths(names.map((n) => path.join(p, n)))));
      continue;
    }
    const rel = path.relative(process.cwd(), p) || p;
    const gz = p.endsWith(OPERATIONS_EXTENSION);
    const id = path.basename(p, gz ? OPERATIONS_EXTENSION : '.json');
    const bytes = await fsp.readFile(p).catch((e: Error) => e);
    if (bytes instanceof Error) {
      files.push({ id, file: rel, parseError: `cannot read (${bytes.message})` });
      continue;
    }
    try {
      files.push({ id, file: rel, value: gz ? parseOperationsFile(bytes) : JSON.parse(bytes.toString('utf8')) });
    } catch (e) {
      files.push({ id, file: rel, parseError: `not valid ${gz ? 'gzipped ' : ''}JSON (${(e as Error).message})` });
    }
  }
  return files;
}

const args = process.argv.slice(2).filter((a) => a !== '--');
const config = loadConfig();
const isApiFile = (f: StoredFile) => path.basename(path.dirname(f.file)) === 'apis';
const isOperationsFile = (f: StoredFile) =>
  path.basename(path.dirname(f.file)) === OPERATIONS_FOLDER &&
  path.basename(path.dirname(path.dirname(f.file))) === 'apis';
let tools: StoredFile[];
let apis: StoredFile[];
let operations: StoredFile[];
if (args.length) {
  const files = await fromPaths(args);
  tools = files.filter((f) => !isApiFile(f) && !isOperationsFile(f));
  apis = files.filter(isApiFile);
  operations = files.filter(isOperationsFile);
} else {
  const store = createCatalogStore({
    dir: config.catalogDir,
    label: path.relative(process.cwd(), config.catalogDir) || 'catalog',
  });
  [tools, apis, operations] = await Promise.all([
    store.readAll('tools'),
    store.readAll('apis'),
    // A catalog without recipes (tools only, or manifests ingested by hand) has no such folder.
    existsSync(path.join(config.catalogDir, 'apis', OPERATIONS_FOLDER))
      ? fromPaths([path.join(config.catalogDir, 'apis', OPERATIONS_FOLDER)])
      : Promise.resolve([]),
  ]);
}
if (args.length && tools.length + apis.length + operations.length === 0) {
  console.error(`no contract files in ${args.join(', ')} (give .json files, folders of them, or a catalog root)`);
  process.exit(1);
}
const toolCheck = checkToolFiles(tools, { commands: true });
const apiCheck = checkApiFiles(apis);
// Recipes are checked against the manifests given with them (all of catalog/apis without arguments).
const opCheck = checkOperationFiles(operations, apiCheck.valid);
const errors = [...toolCheck.errors, ...apiCheck.errors, ...opCheck.errors];
for (const line of errors) console.log(line);
const checked = tools.length + apis.length + operations.length;
const valid = toolCheck.valid.length + apiCheck.valid.length + opCheck.valid.length;
console.error(`${checked} file(s) checked, ${valid} valid, ${errors.length} error(s)`);
process.exit(errors.length ? 1 : 0);
