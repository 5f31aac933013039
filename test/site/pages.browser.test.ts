// The generated pages in real Chromium: contract text renders as text (no script runs), links work.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { loadConfig } from '../../build/config.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)> ]]> & done';

describe('pages in Chromium', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    cat = await tempCatalog([
      sampleContract('npm-alpha-v1'),
      sampleContract('github-evil-v1', { identity: { platform: 'github', name: 'evil<b>', task: EVIL } }),
    ]);
    const config = loadConfig({ PORT: '0', CATALOG_DIR: cat.catalogDir, DIST_DIR: cat.distDir, DATA_DIR: cat.dataDir });
    await build({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl });
    server = await startServer({ ...config });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await cat?.cleanup();
  });

  it('renders hostile contract text as text on / and on the tool page, and runs no script', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await page.goto(`${server.url}/`);
    expect(await page.locator('main').innerText()).toContain(EVIL);
    expect(await page.locator('main img').count()).toBe(0);
    await page.getByRole('link', { name: 'evil<b>' }).click();
    await page.waitForURL('**/tools/github-evil-v1/');
    expect(await page.locator('h1').innerText()).toBe('evil<b>');
    expect(await page.locator('main > p').first().innerText()).toBe(EVIL);
    expect(await page.title()).toContain('evil<b> (github)');
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('serves / without any script or style and with working links to every tool page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    expect(await page.locator('script, style, link[rel=stylesheet]').count()).toBe(0);
    const hrefs = await page
      .locator('main a[href^="/tools/"]')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
    expect(hrefs.sort()).toEqual(['/tools/github-evil-v1/', '/tools/npm-alpha-v1/']);
    for (const href of hrefs) expect((await page.request.get(server.url + href)).status()).toBe(200);
    await page.close();
  });
});
