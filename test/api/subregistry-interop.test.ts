// A registry client reads our subregistry: the catalog's own translate code for the official MCP registry
// (build/translate/mcp-registry.ts, written against registry.modelcontextprotocol.io) pointed at this server
// turns our answer for a remote server back into an mcp_server draft with the same endpoint and transport.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { mcpRegistryDraft } from '../../build/translate/mcp-registry.ts';
import { upstreamConfig } from '../../build/translate/upstream-fetch.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const WEATHER = path.resolve(import.meta.dirname, '../fixtures/mcp-servers/github-example-org-weather-mcp-v1.json');

describe('the MCP registry client of translate, reading our subregistry', () => {
  let s: TestServer;
  beforeAll(async () => {
    const weather = JSON.parse(await fsp.readFile(WEATHER, 'utf8')) as ToolContract;
    s = await startTestServer({ apis: false, extraTools: [weather] });
  });
  afterAll(() => s?.cleanup());

  it('gets the latest version of a remote server and makes the same endpoint of it', async () => {
    const cfg = upstreamConfig({ MCP_REGISTRY_URL: s.url, ALLOW_PRIVATE_UPSTREAMS: '1', UPSTREAM_TIMEOUT_MS: '20000' });
    const draft = await mcpRegistryDraft('io.github.example-org/weather-mcp', 'latest', cfg);
    const text = JSON.stringify(draft);
    expect(text).toContain('https://weather.example.com/mcp');
    expect(text).toContain('streamable-http');
    expect(draft.version).toBe('0.4.1');
  });
});
