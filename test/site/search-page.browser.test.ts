// The static /search/ page in real Chromium: type a need, see results, follow one; the order equals
// the API's for the same query (both rank with build/search); the page runs under its CSP.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../api/server.ts';
import { build } from '../../build/pipeline/build.ts';
import { loadConfig } from '../../build/config.ts';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT } from '../helpers/run-ts.ts';
import { type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';
import { cp } from 'node:fs/promises';
import path from 'node:path';

describe('static search page', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    cat = await tempCatalog();
    await cp(path.join(ROOT, 'catalog/tools'), path.join(cat.catalogDir, 'tools'), { recursive: true });
    const config = loadConfig({ PORT: '0', CATALOG_DIR: cat.catalogDir, DIST_DIR: cat.distDir, DATA_DIR: cat.dataDir });
    await build({ catalogDir: config.catalogDir, distDir: config.distDir, baseUrl: config.baseUrl });
    server = await startServer(config);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await cat?.cleanup();
  });

  const staticResults = async (q: string) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${server.url}/search/`);
    await page.fill('#q', q);
    await page.waitForFunction(() => /result/.test(document.getElementById('search-status')?.textContent ?? ''));
    const hrefs = await page
      .locator('#search-results li a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
    return { page, hrefs, errors };
  };

  it('answers a typed need with results and a followable link, without errors', async () => {
    const { page, hrefs, errors } = await staticResults('send transactional email');
    expect(hrefs.length).toBeGreaterThan(0);
    const names = await page.locator('#search-results li a').allTextContents();
    expect(names.slice(0, 5).some((n) => /mail|sendgrid|resend|postmark/i.test(n))).toBe(true);
    await page.locator('#search-results li a').first().click();
    await page.waitForURL(`**${hrefs[0]}`);
    expect(await page.locator('h1').textContent()).toBe(names[0]);
    expect(errors, errors.join('\n')).toEqual([]);
    await page.close();
  });

  for (const q of ['hash passwords', 'read excel files', 'vector database', 'web scraping']) {
    it(`orders "${q}" exactly as GET /api/v1/tools does`, async () => {
      const api = await (await fetch(`${server.url}/api/v1/tools?q=${encodeURIComponent(q)}`)).json();
      const apiHrefs = api.results.map((r: { identity: { aid: string } }) => `/tools/${r.identity.aid}/`);
      const { page, hrefs } = await staticResults(q);
      expect(apiHrefs.length).toBeGreaterThan(0);
      expect(hrefs.slice(0, apiHrefs.length)).toEqual(apiHrefs);
      await page.close();
    });
  }

  it('never throws on query syntax, punctuation or other scripts', async () => {
    for (const q of ['foo:', '+-~^*', '"unbalanced', 'пароль хэш', '密码', 'a'.repeat(300)]) {
      const { page, errors } = await staticResults(q);
      expect(errors, q).toEqual([]);
      await page.close();
    }
  });
});
