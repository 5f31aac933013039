// npm run schema: regenerates catalog/schema/*.schema.json from the TypeBox definitions.
import path from 'node:path';
import { writeFileAtomic } from '../catalog/storage/atomic-fs-driver.ts';
import { loadConfig } from '../config.ts';
import { schemaFiles } from '../model/json-schemas.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run schema
Regenerates catalog/schema/*.schema.json from the TypeBox definitions.
`);

const { catalogDir } = loadConfig();
for (const f of schemaFiles()) {
  await writeFileAtomic(path.join(catalogDir, f.path), f.content);
  console.log(`wrote ${path.relative(process.cwd(), path.join(catalogDir, f.path))}`);
}
