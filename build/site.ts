// Runs Eleventy programmatically over site/ with data prepared in code (build/site-data.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Eleventy from '@11ty/eleventy';
import { register } from 'tsx/esm/api';
import type { SiteData } from './site-data.ts';

const SITE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../site');

interface EleventyConfigApi {
  addExtension(ext: string[], opts: { key: string }): void;
  setTemplateFormats(ext: string[]): void;
  addGlobalData(name: string, value: unknown): void;
  setUseGitIgnore(v: boolean): void;
  ignores: { add(glob: string): void };
  setQuietMode(v: boolean): void;
}

let tsxRegistered = false;

/** Templates are TypeScript modules that Eleventy import()s itself: teach Node's loader .ts once. */
function ensureTsLoader() {
  if (tsxRegistered) return;
  register();
  tsxRegistered = true;
}

/** Renders the HTML pages into `outDir`; returns how many files Eleventy wrote. */
export async function renderSite(data: SiteData, outDir: string, options: { skip?: string[] } = {}): Promise<number> {
  ensureTsLoader();
  const elev = new Eleventy(SITE_DIR, outDir, {
    quietMode: true,
    configPath: false as unknown as string,
    config(cfg: EleventyConfigApi) {
      cfg.addExtension(['11ty.ts'], { key: '11ty.js' });
      cfg.setTemplateFormats(['11ty.ts']);
      cfg.setUseGitIgnore(false);
      cfg.setQuietMode(true);
      cfg.addGlobalData('site', data);
      for (const name of options.skip ?? []) cfg.ignores.add(`${SITE_DIR}/${name}.11ty.ts`);
    },
  } as never);
  const result = (await elev.write()) as unknown;
  return countWritten(result);
}

function countWritten(result: unknown): number {
  // Eleventy 3 answers [passthroughResults, templateResults]; count rendered templates.
  if (Array.isArray(result) && Array.isArray(result[1])) return (result[1] as unknown[]).flat().length;
  return 0;
}
