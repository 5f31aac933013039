// /llmo-apis and /mai-api in real Chromium: no console errors, manifest text renders as text, the plain
// index carries no script or style, the landing page's table of contents and manifest links work, and a
// screenshot of it is a real picture.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../build/pipeline/build.ts';
import { loadConfig } from '../../build/config.ts';
import { type RunningServer, startServer } from '../../api/server.ts';
import { sampleManifest, writeManifest } from '../helpers/api-manifests.ts';
import { launchChromium } from '../helpers/browser.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

const EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)> & done';

describe('web-API pages in Chromium', () => {
  let cat: TempCatalog;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1')]);
    const apis = [
      sampleManifest('stripe_api', {
        category: 'payments',
        manifest: {
          service: 'Stripe API',
          base_url: 'https://api.stripe.com',
          auth: { type: 'basic', header: 'Authorization' },
        },
      }),
      sampleManifest('sendgrid_api', {
        manifest: { service: 'SendGrid Mail', base_url: 'https://api.sendgrid.com/v3' },
      }),
      sampleManifest('evil_api', { category: 'maps', manifest: { service: EVIL } }),
      ...Array.from({ length: 12 }, (_, i) =>
        sampleManifest(`cloud_${i}_api`, { category: 'cloud', manifest: { service: `Cloud Service ${i}` } }),
      ),
    ];
    for (const m of apis) await writeManifest(cat.catalogDir, m);
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

  /** A page that records console errors, page errors and dialogs (a dialog would mean injected script ran). */
  async function open(p: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', async (d) => {
      problems.push(`dialog: ${d.message()}`);
      await d.dismiss();
    });
    const res = await page.goto(`${server.url}${p}`);
    expect(res?.status()).toBe(200);
    return { page, problems };
  }

  it('/llmo-apis: no script or style, every manifest link works, manifest text is text', async () => {
    const { page, problems } = await open('/llmo-apis');
    expect(await page.locator('script, style, link[rel=stylesheet], [style]').count()).toBe(0);
    expect(await page.locator('h2').allTextContents()).toEqual([
      'payments (1 APIs)',
      'email (1 APIs)',
      'maps (1 APIs)',
      'cloud (12 APIs)',
    ]);
    expect(await page.locator('main').textContent()).toContain(EVIL);
    expect(await page.locator('main img').count()).toBe(0);
    const hrefs = await page
      .locator('main a[href$="/mai-api.json"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toHaveLength(15);
    for (const href of hrefs.slice(0, 3)) {
      const res = await page.request.get(server.url + href);
      expect(res.status()).toBe(200);
      expect(await res.json()).toHaveProperty('base_url');
    }
    await page.waitForTimeout(200);
    expect(problems, problems.join('\n')).toEqual([]);
    await page.close();
  });

  it('/mai-api: styled, no script, table of contents with counts that jumps to its category, source and licence stated', async () => {
    const { page, problems } = await open('/mai-api');
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe('Web-API manifests');
    // The stylesheet applied (CSP allows inline styles on HTML): the header has its tinted background.
    expect(await page.locator('header').evaluate((h) => getComputedStyle(h).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    );
    expect(await page.locator('.toc a').allTextContents()).toEqual(['Payments 1', 'Email 1', 'Maps 1', 'Cloud 12']);
    await page.locator('.toc a', { hasText: 'Cloud' }).click();
    await page.waitForURL('**/mai-api#cloud');
    expect(await page.locator('#cloud tbody tr').count()).toBe(12);
    expect(
      await page
        .locator('#cloud')
        .boundingBox()
        .then((b) => Math.round(b?.y ?? -1)),
    ).toBeLessThan(50);
    const info = await page.locator('.info').textContent();
    expect(info).toContain('APIs.guru OpenAPI Directory');
    expect(info).toContain('CC0 1.0');
    expect(info).toContain('not affiliated');
    expect(await page.locator('a[href="https://github.com/APIs-guru/openapi-directory"]').count()).toBe(1);
    expect(await page.locator('#maps td.api strong').textContent()).toBe(EVIL);
    await page.waitForTimeout(200);
    expect(problems, problems.join('\n')).toEqual([]);
    // Checked before leaving: on a JSON document Chromium asks for /favicon.ico, which the site has not.
    await page.locator('#payments a', { hasText: 'JSON' }).click();
    await page.waitForURL('**/api/v1/services/stripe_api/mai-api.json');
    expect(JSON.parse((await page.locator('body').textContent()) ?? '{}')).toMatchObject({
      service: 'Stripe API',
      base_url: 'https://api.stripe.com',
    });
    await page.close();
  });

  it('a screenshot of /mai-api is a real PNG picture', async () => {
    const { page } = await open('/mai-api');
    const file = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-shot-')), 'mai-api.png');
    await page.screenshot({ path: file, fullPage: true });
    await page.close();
    const png = await fsp.readFile(file);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(width).toBe(1280);
    expect(height).toBeGreaterThan(900);
    // A blank or failed render compresses to almost nothing; a page of text and tables does not.
    expect(png.length).toBeGreaterThan(40_000);
    await fsp.rm(path.dirname(file), { recursive: true, force: true });
  });
});
