// Runs Eleventy programmatically over site/ with data prepared in code (build/site-data.ts).
// Tool pages render in batches, one Eleventy run each, so memory stays bounded at 100,000 pages and a
// rebuild can render just the pages that changed.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Eleventy from '@11ty/eleventy';
import { heapCeiling } from './collect-garbage.ts';
import { type SiteData, toolPage } from './site-data.ts';

const SITE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../site');
const TOOL_TEMPLATE = 'tool';
/**
 * Pages per Eleventy run. Measured at 100,000 tools (peak RSS of the build, one run each on a loaded
 * machine): 4,000 → 1,986–2,212 MB, 2,000 → 1,813 MB, 1,000 → 2,120 MB (the peak follows V8's collection
 * timing as much as the batch); 2,000 also rendered fastest of the three.
 */
export const TOOL_BATCH = 2_000;
/**
 * How far the used heap may grow past what the last collection left before the next batch waits for a
 * full collection (collect-garbage.ts). Without it V8 let the heap reach 733-1,046 MB at 100,000 tools
 * (about 175 MB live), memory the thread then kept; with it the heap stayed at 397-416 MB. A catalog
 * whose whole heap stays under this never collects here.
 */
export const HTML_HEAP_MARGIN_BYTES = 192 * 1024 * 1024;
/** One per thread: a thread's next build (an incremental one renders a few pages) measures from its last collection. */
const boundHeap = heapCeiling(HTML_HEAP_MARGIN_BYTES);

interface EleventyConfigApi {
  addExtension(ext: string[], opts: { key: string }): void;
  setTemplateFormats(ext: string[]): void;
  addGlobalData(name: string, value: unknown): void;
  setUseGitIgnore(v: boolean): void;
  setQuietMode(v: boolean): void;
  ignores: { add(glob: string): void };
}

const templateNames = () =>
  readdirSync(SITE_DIR)
    .filter((f) => f.endsWith('.11ty.ts'))
    .map((f) => f.slice(0, -'.11ty.ts'.length));

async function runEleventy(data: SiteData, outDir: string, only: (name: string) => boolean): Promise<number> {
  const skipped = templateNames().filter((n) => !only(n));
  const elev = new Eleventy(SITE_DIR, outDir, {
    quietMode: true,
    configPath: false,
    config(cfg: EleventyConfigApi) {
      cfg.addExtension(['11ty.ts'], { key: '11ty.js' });
      cfg.setTemplateFormats(['11ty.ts']);
      cfg.setUseGitIgnore(false);
      cfg.setQuietMode(true);
      cfg.addGlobalData('site', data);
      for (const name of skipped) cfg.ignores.add(path.join(SITE_DIR, `${name}.11ty.ts`));
    },
  });
  silenceSummary(elev);
  return countWritten(await elev.write());
}

/**
 * Eleventy prints its "Wrote N files" summary even in quiet mode (it is forced); the build reports its
 * own progress, so drop that line and keep everything else (warnings, errors).
 */
function silenceSummary(elev: Eleventy): void {
  const logger = elev.logger as { logWithOptions(o: { force?: boolean; color?: string }): void } | undefined;
  if (!logger) return;
  const original = logger.logWithOptions.bind(logger);
  logger.logWithOptions = (o) => {
    if (!(o.force && o.color === 'green')) original(o);
  };
}

function countWritten(result: unknown): number {
  // Eleventy 3 answers [passthroughResults, templateResults]; count rendered templates.
  if (Array.isArray(result) && Array.isArray(result[1])) return (result[1] as unknown[]).flat().length;
  return 0;
}

/** Renders the HTML pages into `outDir` (the shared pages, then a page for each of `data.rendered`); returns how many files Eleventy wrote. */
export async function renderSite(data: SiteData, outDir: string): Promise<number> {
  boundHeap();
  let written = await runEleventy({ ...data, toolPages: [] }, outDir, (n) => n !== TOOL_TEMPLATE);
  const tools = data.rendered;
  for (let i = 0; i < tools.length; i += TOOL_BATCH) {
    boundHeap();
    const toolPages = tools.slice(i, i + TOOL_BATCH).map((t) => toolPage(t, data.baseUrl));
    written += await runEleventy({ ...data, indexPages: [], toolPages }, outDir, (name) => name === TOOL_TEMPLATE);
  }
  return written;
}
