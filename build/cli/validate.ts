// npm run validate [-- PATHS]: checks contract files and API manifests (catalog/apis, or any path in an
// `apis` folder); one line per error, exit 1 on any error.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { createCatalogStore, type StoredFile } from '../catalog/catalog-store.ts';
import { loadConfig } from '../config.ts';
import { checkApiFiles } from '../catalog/validate-apis.ts';
import { checkToolFiles } from '../catalog/validate-catalog.ts';

async function fromPaths(paths: string[]): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  for (const p of paths) {
    const stat = await fsp.stat(p).catch(() => null);
    if (stat?.isDirectory()) {
      const names = (await fsp.readdir(p)).filter((n) => n.endsWith('.json')).sort();
      files.push(...(await fromPaths(names.map((n) => path.join(p, n)))));
      continue;
    }
    const rel = path.relative(process.cwd(), p) || p;
    const id = path.basename(p, '.json');
    const text = await fsp.readFile(p, 'utf8').catch((e: Error) => e);
    if (text instanceof Error) { files.push({ id, file: rel, parseError: `cannot read (${text.message})` }); continue; }
    try { files.push({ id, file: rel, value: JSON.parse(text) }); } catch (e) { files.push({ id, file: rel, parseError: `not valid JSON (${(e as Error).message})` }); }
  }
  return files;
}

const args = process.argv.slice(2).filter((a) => a !== '--');
const config = loadConfig();
const isApiFile = (f: StoredFile) => path.basename(path.dirname(f.file)) === 'apis';
let tools: StoredFile[];
let apis: StoredFile[];
if (args.length) {
  const files = await fromPaths(args);
  tools = files.filter((f) => !isApiFile(f));
  apis = files.filter(isApiFile);
} else {
  const store = createCatalogStore({ dir: config.catalogDir, label: path.relative(process.cwd(), config.catalogDir) || 'catalog' });
  [tools, apis] = await Promise.all([store.readAll('tools'), store.readAll('apis')]);
}
const toolCheck = checkToolFiles(tools, { commands: true });
const apiCheck = checkApiFiles(apis);
const errors = [...toolCheck.errors, ...apiCheck.errors];
for (const line of errors) console.log(line);
console.error(`${tools.length + apis.length} file(s) checked, ${toolCheck.valid.length + apiCheck.valid.length} valid, ${errors.length} error(s)`);
process.exit(errors.length ? 1 : 0);
