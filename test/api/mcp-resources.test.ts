// resources/list over a catalog larger than one page: cursors walk every listable contract once, most
// reliable first, then the API manifests; unverified and dead contracts stay readable by URI but unlisted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_PAGE } from '../../api/mcp/resources.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { fixtureTools, startTestServer, type TestServer } from '../helpers/server.ts';

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
      trust: { ...chalk.trust, reliability_score: 0.5 + i / 1000, status: i === 7 ? 'dead' as const : chalk.trust.status },
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
    const score = (uri: string) => s.running.ctx.snapshot.byAid.get(uri.slice('catalog://tools/'.length))?.trust.reliability_score ?? -1;
    const scores = tools.map(score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('an unlisted contract is still readable through the template', async () => {
    const { contents } = await client.readResource({ uri: 'catalog://tools/npm-gen008-v1' });
    expect(JSON.parse((contents[0] as { text: string }).text).identity.aid).toBe('npm-gen008-v1');
  });
});
