// resources/list over a catalog larger than one page: cursors walk every listable contract once, most
// reliable first, then the API manifests; unverified and dead contracts stay readable by URI but unlisted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_PAGE } from '../../api/mcp/resources.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { fixtureTools, startTestServer, type TestServer } from '../helpers/server.ts';
import { sampleManifest, writeManifest } from '../helpers/api-manifests.ts';

const EXTRA = 150;

describe('MCP resources/list pagination', () => {
  let s: TestServer;
  let client: Client;

  beforeAll(async () => {
    const chalk = (await fixtureTools()).get('npm-chalk-v1') as ToolContract;
    const extraTools: ToolContract[] = Array.from({ length: EXTRA }, (_, i) => ({
      ...chalk,
      identity: { ...chalk.identity, aid: `npm-gen${String(i).padStart(3, '0')}-v1`, name: `gen${i}` },
      // Distinct scores so the expected order is unambiguous; two of them are never listed.
      trust: {
        ...chalk.trust,
        reliability_score: 0.5 + i / 1000,
        status: i === 7 ? ('dead' as const) : chalk.trust.status,
      },
      record: { ...chalk.record, verified: i !== 8 },
    }));
    s = await startTestServer({ extraTools });
    client = new Client({ name: 'pager', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await s.cleanup();
  });

  it('walks every listable contract once, most reliable first, then the manifests', async () => {
    const pages: Resource[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      pages.push(page.resources);
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages.length < 10);
    expect(pages[0]).toHaveLength(RESOURCE_PAGE);
    const uris = pages.flat().map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    const tools = uris.filter((u) => u.startsWith('catalog://tools/'));
    const apis = uris.filter((u) => u.startsWith('catalog://apis/'));
    // 8 fixtures (npm-request-v1 is unverified) and the generated ones, less one dead and one unverified.
    expect(tools).toHaveLength(7 + EXTRA - 2);
    expect(apis).toEqual(['catalog://apis/sendgrid', 'catalog://apis/openweathermap']);
    expect(uris.slice(-2)).toEqual(apis);
    expect(tools).not.toContain('catalog://tools/npm-gen007-v1');
    expect(tools).not.toContain('catalog://tools/npm-gen008-v1');
    const score = (uri: string) =>
      s.running.ctx.snapshot.byAid.get(uri.slice('catalog://tools/'.length))?.trust.reliability_score ?? -1;
    const scores = tools.map(score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('an unlisted contract is still readable through the template', async () => {
    const { contents } = await client.readResource({ uri: 'catalog://tools/npm-gen008-v1' });
    expect(JSON.parse((contents[0] as { text: string }).text).identity.aid).toBe('npm-gen008-v1');
  });
});

describe('MCP resources/list past 1,000 API manifests', () => {
  it('lists every served manifest (the search engine caps its answers at 1,000; the listing must not)', async () => {
    const s = await startTestServer();
    const client = new Client({ name: 'pager', version: '1.0.0' });
    try {
      const N = 1_200;
      for (let i = 0; i < N; i++)
        await writeManifest(s.catalogDir, sampleManifest(`bulk_${String(i).padStart(4, '0')}_api`));
      await s.restart();
      const served = (await s.json('/health')).body.apis_count as number;
      expect(served).toBeGreaterThan(N);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        uris.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
      } while (cursor);
      const apis = uris.filter((u) => u.startsWith('catalog://apis/'));
      expect(new Set(apis).size).toBe(apis.length);
      expect(apis.length).toBe(served);
      expect(apis).toContain('catalog://apis/bulk_1199_api');
    } finally {
      await client.close();
      await s.cleanup();
    }
  }, 120_000);
});
