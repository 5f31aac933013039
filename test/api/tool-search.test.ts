// api/tool-search.ts: the one ranking seam of the API (over build/search's engine).
import { describe, expect, it } from 'vitest';
import { createToolSearch } from '../../api/services/tool-search.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { snapshotOf } from '../../build/catalog/snapshot.ts';
import { fixtureTools } from '../helpers/server.ts';

const aids = (list: ToolContract[]) => list.map((c) => c.identity.aid);

describe('createToolSearch', () => {
  it('ranks by relevance with reliability, filters by platform, and keeps unverified tools out', async () => {
    const tools = [...(await fixtureTools()).values()];
    const search = createToolSearch(snapshotOf(tools));
    expect(
      aids(search.search('send email', { limit: 10 }))
        .slice(0, 2)
        .sort(),
    ).toEqual(['npm-nodemailer-v1', 'pypi-yagmail-v1']);
    expect(aids(search.search('http client', { platform: 'npm', limit: 10 }))).toEqual(['npm-axios-v1']);
    expect(aids(search.search('', { limit: 3 }))).toEqual(['pypi-requests-v1', 'npm-chalk-v1', 'npm-axios-v1']);
    expect(aids(search.search('request', { limit: 10 }))).not.toContain('npm-request-v1');
  });

  it('upsert and remove are visible to the next search, including the cached top list', async () => {
    const tools = [...(await fixtureTools()).values()];
    const search = createToolSearch(snapshotOf(tools));
    expect(aids(search.search('', { limit: 1 }))).toEqual(['pypi-requests-v1']);
    const base = tools.find((c) => c.identity.aid === 'npm-chalk-v1') as ToolContract;
    const star: ToolContract = {
      ...base,
      identity: { ...base.identity, aid: 'npm-kleur-v1', name: 'kleur', task: 'Terminal colours, tiny and fast' },
      trust: { ...base.trust, reliability_score: 0.99 },
    };
    search.upsert(star);
    expect(aids(search.search('', { limit: 1 }))).toEqual(['npm-kleur-v1']);
    expect(aids(search.search('kleur', { limit: 5 }))[0]).toBe('npm-kleur-v1');
    search.upsert({ ...star, record: { verified: false } });
    expect(aids(search.search('kleur', { limit: 5 }))).not.toContain('npm-kleur-v1');
    search.upsert(star);
    search.remove('npm-kleur-v1');
    expect(aids(search.search('', { limit: 1 }))).toEqual(['pypi-requests-v1']);
  });
});
