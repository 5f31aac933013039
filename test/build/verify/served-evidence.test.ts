// The stored evidence (record.verification) is valid contract data and is served as trust.verification in
// every view and in llms.txt; record itself stays unserved.
import { describe, expect, it } from 'vitest';
import { llmsFiles } from '../../../build/discovery/llms-txt.ts';
import type { ToolContract } from '../../../build/model/contract.ts';
import { validateContract } from '../../../build/model/validate-contract.ts';
import { fullContract, listingItem, partialContract, verificationText } from '../../../build/model/views.ts';
import { toolContract } from '../../helpers/tool-contract.ts';

const BASE = 'https://catalog.example';
const evidence = {
  status: 'passed' as const,
  level: 'loads' as const,
  reason: 'needs the internet: installed, loaded',
  checked_at: '2026-11-25T00:00:00.000Z',
  runtime: 'node 22.23',
  install_ms: 1200,
  execute_ms: 300,
};
const verified: ToolContract = {
  ...toolContract('npm-shout-v1', 'npm', { install_cmd: 'npm install shout', execute_cmd: 'npx shout' }),
  record: { verification: evidence },
};
const unverified = toolContract('npm-other-v1', 'npm', { install_cmd: 'npm install other', execute_cmd: 'npx other' });

describe('verification evidence', () => {
  it('is part of the contract schema, with its statuses and levels checked', () => {
    expect(validateContract(verified)).toEqual([]);
    const bad = { ...verified, record: { verification: { ...evidence, status: 'maybe', level: 'flies' } } };
    expect(validateContract(bad).map((e) => e.path)).toEqual(
      expect.arrayContaining(['/record/verification/status', '/record/verification/level']),
    );
  });

  it('is served as trust.verification in the listing, partial and full views (null before any run)', () => {
    const served = { status: 'passed', level: 'loads', checked_at: evidence.checked_at, runtime: 'node 22.23' };
    for (const view of [listingItem(verified, BASE), partialContract(verified, BASE), fullContract(verified, BASE)]) {
      expect(view.trust.verification).toEqual(served);
      expect(JSON.stringify(view)).not.toContain(evidence.reason);
    }
    expect(listingItem(unverified, BASE).trust.verification).toBeNull();
  });

  it('appears on each llms.txt line and in the one-line text of tool pages', () => {
    const text = llmsFiles([verified, unverified], BASE)
      .map((f) => f.content)
      .join('\n');
    expect(text).toMatch(/\[shout\]\([^)]*\): shout \(reliability 0\.5, verification passed \(loads\)\)/);
    expect(text).toMatch(/\[other\]\([^)]*\): other \(reliability 0\.5\)\n/);
    expect(verificationText(verified)).toBe('passed (loads) on node 22.23, checked 2026-11-25');
    expect(verificationText(unverified)).toBe('not verified yet');
  });
});
