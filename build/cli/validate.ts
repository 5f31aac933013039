// npm run validate [-- PATHS]: checks contract files; one line per error, exit 1 on any error.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { createCatalogStore, type StoredFile } from '../catalog-store.ts';
import { loadConfig } from '../config.ts';
import { checkToolFiles } from '../validate-catalog.ts';

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
const files = args.length
  ? await fromPaths(args)
  : await createCatalogStore({ dir: config.catalogDir, label: path.relative(process.cwd(), config.catalogDir) || 'catalog' }).readAll('tools');
const { errors, valid } = checkToolFiles(files);
for (const line of errors) console.log(line);
console.error(`${files.length} file(s) checked, ${valid.length} valid, ${errors.length} error(s)`);
process.exit(errors.length ? 1 : 0);
