// npm run build: catalog → dist/ (atomic swap). Exit 1 with one line per problem if the catalog is invalid.
import { build, CatalogInvalidError } from '../pipeline/build.ts';
import { loadConfig } from '../config.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run build
Builds catalog/ into dist/ (atomic swap). Settings from the environment: CATALOG_DIR, DIST_DIR, BASE_URL,
API_ORIGIN, STORAGE_URL. Exit 1 with one line per problem when the catalog is invalid (dist/ unchanged).
`);

const config = loadConfig();
try {
  // With STORAGE_URL=redis:// the site shows the catalog as the API serves it: the files under the overlay.
  const r = await build({
    catalogDir: config.catalogDir,
    distDir: config.distDir,
    baseUrl: config.baseUrl,
    apiOrigin: config.apiOrigin,
    ...(config.storageUrl ? { storageUrl: config.storageUrl } : {}),
    log: process.stderr.isTTY && !process.env.CI ? (l) => console.error(l) : undefined,
  });
  console.log(`built ${r.toolsCount} tools into ${config.distDir} in ${(r.ms / 1000).toFixed(2)} s`);
} catch (error) {
  if (error instanceof CatalogInvalidError) {
    for (const line of error.errors) console.error(line);
    console.error(`build refused: ${error.errors.length} error(s); dist/ unchanged`);
    process.exit(1);
  }
  throw error;
}
