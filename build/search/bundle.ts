// Bundles the browser search client (browser-entry.ts + client/plan/rank/tokenize + lunr) into one
// ES module file, e.g. dist/search/search.js, so the page runs the very code the API engine runs.
//   await bundleSearchClient(outFile) -> {bytes}
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function bundleSearchClient(outFile: string, opts: { minify?: boolean } = {}): Promise<{ bytes: number }> {
  await build({
    entryPoints: [path.join(here, 'browser-entry.ts')],
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: opts.minify ?? true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return { bytes: statSync(outFile).size };
}
