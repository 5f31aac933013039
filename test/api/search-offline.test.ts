// GET /api/v1/tools?offline=true and MCP search_tools {offline: true}: an agent without network or without
// credentials gets only tools whose command needs neither (action.requires.network, action.requires.env).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { runsOffline } from '../../build/model/offline.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';
import { mcpToolCall, startTestServer, type TestServer } from '../helpers/server.ts';

const translator = (aid: string, task: string, requires?: ToolContract['action']['requires']) => {
  const c = sampleContract(aid, { identity: { task, tags: ['zzqtranslate', 'language'] } });
  c.action.execute_cmd = 'zz-translate {text}';
  if (requires) c.action.requires = requires;
  c.logic.input_schema = {
    type: 'object',
    properties: { text: { type: 'string', description: 'Text', role: 'text', examples: ['hello'] } },
    required: ['text'],
  };
  c.trust.reliability_score = 0.97;
  c.record = { verified: true };
  return c;
};
// The best match needs a cloud service; the next a key only; the last runs here.
const cloud = translator('npm-zz-cloud-translate-v1', 'zzqtranslate text between languages zzqtranslate', {
  network: true,
  env: ['ZZ_API_KEY'],
});
const keyed = translator('npm-zz-keyed-translate-v1', 'zzqtranslate text with a licence key', { env: ['ZZ_KEY'] });
const local = translator('npm-zz-local-translate-v1', 'zzqtranslate text', { runtime: { node: '>=22' } });

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ extraTools: [cloud, keyed, local] });
}, 120_000);
afterAll(() => t?.cleanup());

const aids = (body: { results: { identity: { aid: string } }[] }) => body.results.map((r) => r.identity.aid);

describe('runsOffline', () => {
  it('is false when the command needs the internet or credentials', () => {
    expect(runsOffline(cloud)).toBe(false);
    expect(runsOffline(keyed)).toBe(false);
    expect(runsOffline(local)).toBe(true);
    expect(runsOffline(sampleContract('npm-zz-plain-v1'))).toBe(true);
    expect(runsOffline(translator('npm-zz-off-v1', 'x', { network: false, env: [] }))).toBe(true);
  });
});

describe('search offline', () => {
  it('offline=true leaves out tools that need the network or a credential', async () => {
    const all = await t.json('/api/v1/tools?q=zzqtranslate');
    expect(aids(all.body)[0]).toBe('npm-zz-cloud-translate-v1');
    expect(aids(all.body)).toHaveLength(3);
    expect(all.body.offline).toBeUndefined();
    const offline = await t.json('/api/v1/tools?q=zzqtranslate&offline=true');
    expect(offline.status).toBe(200);
    expect(offline.body.offline).toBe(true);
    expect(aids(offline.body)).toEqual(['npm-zz-local-translate-v1']);
    // With other filters, and spelled as pydantic reads booleans.
    const both = await t.json('/api/v1/tools?q=zzqtranslate&inputs=text&category=npm&offline=1');
    expect(aids(both.body)).toEqual(['npm-zz-local-translate-v1']);
    const off = await t.json('/api/v1/tools?q=zzqtranslate&offline=false');
    expect(aids(off.body)).toEqual(aids(all.body));
  });

  it('the empty query (top list) honours it too', async () => {
    const top = await t.json('/api/v1/tools?offline=true&kind=tool');
    expect(top.status).toBe(200);
    expect(top.body.count).toBeGreaterThan(0);
    for (const r of top.body.results) {
      const full = await t.post(`/api/v1/tools/${r.identity.aid}`, {
        execution_feedback: 102,
        trend_keyword: 'offline list',
      });
      expect(runsOffline(full.body as ToolContract), r.identity.aid).toBe(true);
    }
  });

  it('a value that is not a boolean is a 422 naming the parameter', async () => {
    const res = await t.json('/api/v1/tools?q=zzqtranslate&offline=maybe');
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'offline']);
    expect(res.body.detail[0].type).toBe('bool_parsing');
  });

  it('MCP search_tools takes the same filter', async () => {
    const call = (args: Record<string, unknown>) => mcpToolCall(t, 'search_tools', args);
    const found = await call({ query: 'zzqtranslate', offline: true });
    expect(aids(JSON.parse(found.content[0]!.text))).toEqual(['npm-zz-local-translate-v1']);
    const all = await call({ query: 'zzqtranslate', offline: false });
    expect(aids(JSON.parse(all.content[0]!.text))).toHaveLength(3);
    const bad = await call({ query: 'zzqtranslate', offline: 'yes' });
    expect(bad.isError).toBe(true);
  });
});
