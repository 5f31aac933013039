// axe-core in real Chromium: 0 violations on the index, a tool page, /llmo-apis, /mai-api and the search
// page before and after a query. The pages' CSP forbids injected scripts, so the context bypasses it to
// load axe (the pages themselves are unchanged).
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { launchChromium } from '../helpers/browser.ts';
import { loadConfig } from '../../build/config.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { createLogger } from '../../api/ops/logger.ts';
import { sampleManifest, writeManifest } from '../helpers/api-manifests.ts';
import { ROOT } from '../helpers/run-ts.ts';
import { type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Violation[] }> } })
      .axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return found.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .slice(0, 3)
        .map((n) => JSON.stringify(n.target))
        .join(' ')}`,
  );
}

describe('accessibility (axe-core)', () => {
  let cat: TempCatalog;
  let s: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    // The bundled tools (real names and tasks) and the fixture API manifests.
    cat = await tempCatalog();
    await cp(path.join(ROOT, 'catalog/tools'), path.join(cat.catalogDir, 'tools'), { recursive: true });
    for (const [name, category] of [
      ['mailer_api', 'email'],
      ['maps_geo_api', 'maps'],
      ['pay_cards_api', 'payments'],
    ] as const) {
      await writeManifest(cat.catalogDir, sampleManifest(name, { category }));
    }
    const config = loadConfig({ PORT: '0', CATALOG_DIR: cat.catalogDir, DIST_DIR: cat.distDir, DATA_DIR: cat.dataDir });
    await build({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl });
    s = await startServer(config, { log: createLogger('silent') });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await cat?.cleanup();
  });

  for (const p of ['/', '/tools/npm-axios-v1/', '/llmo-apis', '/mai-api']) {
    it(`${p}: 0 violations`, async () => {
      const context = await browser.newContext({ bypassCSP: true });
      try {
        const page = await context.newPage();
        const res = await page.goto(`${s.url}${p}`);
        expect(res?.status()).toBe(200);
        expect(await violations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('/search/: 0 violations before and after a query', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${s.url}/search/`);
      expect(await violations(page)).toEqual([]);
      await page.fill('#q', 'http client');
      await page.waitForFunction(() => /result/.test(document.getElementById('search-status')?.textContent ?? ''));
      expect(await page.locator('#search-results li').count()).toBeGreaterThan(0);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
