// How verification evidence moves what agents are shown: a failed sandboxed run serves an active contract as
// `degraded` and scales its ranking prior down, so it loses to an equal match that works; a pass changes nothing.
import { describe, expect, it } from 'vitest';
import { documentFromContract } from '../../../build/search/documents.ts';
import { listingItem, partialContract, rankingPrior, servedStatus } from '../../../build/model/views.ts';
import { createToolSearch } from '../../../api/services/tool-search.ts';
import type { ToolContract } from '../../../build/model/contract.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const evidence = (status: 'passed' | 'failed') => ({
  status,
  reason: status === 'passed' ? 'installed and did its task offline' : 'execute exited with code 1',
  checked_at: '2026-11-25T00:00:00.000Z',
  runtime: 'node 22.23',
  install_ms: 1000,
  execute_ms: 100,
  ...(status === 'passed' ? { level: 'runs' as const } : {}),
});

function withEvidence(aid: string, status: 'passed' | 'failed' | null): ToolContract {
  const c = sampleContract(aid, { identity: { task: 'Convert markdown documents to html pages' } });
  return status ? { ...c, record: { ...c.record, verification: evidence(status) } } : c;
}

describe('verification evidence in trust and ranking', () => {
  it('serves an active contract whose last run failed as degraded, everywhere the trust block is shown', () => {
    const failed = withEvidence('npm-broken-v1', 'failed');
    expect(servedStatus(failed)).toBe('degraded');
    expect(partialContract(failed, 'http://x').trust.status).toBe('degraded');
    expect(listingItem(failed, 'http://x').trust.status).toBe('degraded');
    expect(servedStatus(withEvidence('npm-fine-v1', 'passed'))).toBe('active');
    const dead = { ...failed, trust: { ...failed.trust, status: 'dead' as const } };
    expect(servedStatus(dead)).toBe('dead');
  });

  it('scales the ranking prior of a failed contract, so an equal match that works ranks first', () => {
    const failed = withEvidence('npm-alpha-v1', 'failed');
    const works = withEvidence('npm-beta-v1', 'passed');
    expect(rankingPrior(failed)).toBeCloseTo(failed.trust.reliability_score * 0.75);
    expect(documentFromContract(works).prior).toBe(works.trust.reliability_score);
    const search = createToolSearch({ tools: [failed, works] } as never);
    expect(search.search('convert markdown to html', { limit: 2 })[0]?.identity.aid).toBe('npm-beta-v1');
  });
});

describe('MCP servers whose tool list changed (review)', () => {
  it('scales the prior of a contract in review as a failed one is, so an unchanged equal match ranks first', () => {
    const base = withEvidence('npm-alpha-mcp-v1', 'passed');
    const changed: ToolContract = { ...base, trust: { ...base.trust, status: 'review' } };
    const unchanged = withEvidence('npm-beta-mcp-v1', 'passed');
    expect(rankingPrior(changed)).toBeCloseTo(changed.trust.reliability_score * 0.75);
    expect(servedStatus(changed)).toBe('review');
    // Failed and in review at once: scaled once, not twice.
    const both: ToolContract = { ...withEvidence('npm-gamma-mcp-v1', 'failed'), trust: changed.trust };
    expect(rankingPrior(both)).toBeCloseTo(both.trust.reliability_score * 0.75);
    // The alphabetically first aid would win a tie: the review is what puts it second.
    const search = createToolSearch({ tools: [changed, unchanged] } as never);
    expect(search.search('convert markdown to html', { limit: 2 }).map((t) => t.identity.aid)).toEqual([
      'npm-beta-mcp-v1',
      'npm-alpha-mcp-v1',
    ]);
    const after = createToolSearch({ tools: [base, unchanged] } as never);
    expect(after.search('convert markdown to html', { limit: 2 })[0]?.identity.aid).toBe('npm-alpha-mcp-v1');
  });
});
