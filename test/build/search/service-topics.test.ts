// What a web API's manifest says about its service reaches both production searches: the API's tool
// search (api/services/tool-search.ts) and the static search the build writes (dist/search).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearch } from '../../../api/services/tool-search.ts';
import { snapshotOf } from '../../../build/catalog/snapshot.ts';
import type { ToolContract } from '../../../build/model/contract.ts';
import { build } from '../../../build/pipeline/build.ts';
import { StaticSearch } from '../../../build/search/client.ts';
import { dirFetcher } from '../../../build/search/fs-fetch.ts';
import { sampleManifest, writeManifest } from '../../helpers/api-manifests.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../../helpers/temp-catalog.ts';

const filler = Array.from({ length: 30 }, (_, i) =>
  sampleContract(`npm-filler${i}-v1`, { identity: { task: `Parses format number ${i} into objects` } }),
);
// An SDK whose own words say nothing of its job, and a tool whose words match the query a little.
const sdk = sampleContract('npm-paymo-v1', { identity: { task: 'Official API wrapper', tags: ['sdk'] } });
const other = sampleContract('npm-charge-helper-v1', {
  identity: { task: 'Helpers for payment forms and billing screens', tags: ['forms'] },
});
const manifest = sampleManifest('paymo_api', { category: 'payments', tags: ['payments', 'invoices', 'billing'] });
const tools: ToolContract[] = [...filler, sdk, other];

let cat: TempCatalog;
beforeAll(async () => {
  cat = await tempCatalog(tools);
  await writeManifest(cat.catalogDir, manifest);
  await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: 'https://catalog.example' });
}, 120_000);
afterAll(() => cat?.cleanup());

describe('web-API topics in tool search', () => {
  it('the API search ranks the SDK named after the service first for the service topics', () => {
    const without = createToolSearch(snapshotOf(tools));
    expect(without.search('invoices', { limit: 5 }).map((c) => c.identity.aid)).not.toContain('npm-paymo-v1');
    const search = createToolSearch(snapshotOf(tools), { apis: [manifest] });
    expect(search.search('invoices', { limit: 5 })[0]?.identity.aid).toBe('npm-paymo-v1');
  });

  it('the static search the build wrote agrees', async () => {
    const fetcher = dirFetcher(path.join(cat.distDir, 'search'));
    const client = await StaticSearch.open(fetcher.fetchJson);
    expect((await client.search('invoices', { limit: 5 }))[0]?.id).toBe('npm-paymo-v1');
  });
});
