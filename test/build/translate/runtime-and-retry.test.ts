// The pure rules under translate and import: runtime minimums from registry ranges, Retry-After and backoff.
import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_RETRY, retryAfterMs } from '../../../build/import/cached-fetch.ts';
import { nodeMinimum, pythonMinimum } from '../../../build/translate/runtime-requirements.ts';

describe('runtime minimums', () => {
  it('reads the lowest Node version an engines range admits', () => {
    for (const [range, min] of [
      ['>=18', '>=18'],
      ['>=18.17.0', '>=18.17'],
      ['^20.10 || >=22', '>=20.10'],
      ['>= 14.17.0 < 19', '>=14.17'],
      ['16.x || 18.x', '>=16'],
      ['*', null],
      ['>=0.10', null],
      ['not a range', null],
    ] as const) {
      expect([range, nodeMinimum({ node: range })]).toEqual([range, min]);
    }
    expect(nodeMinimum(undefined)).toBeNull();
    expect(nodeMinimum({ npm: '>=9' })).toBeNull();
  });

  it('reads the lower bound of requires_python', () => {
    for (const [spec, min] of [
      ['>=3.10', '>=3.10'],
      ['>=3.8, <4', '>=3.8'],
      ['<4,>=3.9', '>=3.9'],
      ['~=3.11', '>=3.11'],
      ['==3.12.*', '>=3.12'],
      ['<3.13', null],
      ['', null],
    ] as const) {
      expect([spec, pythonMinimum(spec)]).toEqual([spec, min]);
    }
  });
});

describe('retries', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-25T03:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Wed, 25 Nov 2026 03:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 02:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffMs(0, DEFAULT_RETRY, () => 1)).toBe(500);
    expect(backoffMs(3, DEFAULT_RETRY, () => 1)).toBe(4000);
    expect(backoffMs(3, DEFAULT_RETRY, () => 0.5)).toBe(2000);
    expect(backoffMs(20, DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.maxDelayMs);
    expect(backoffMs(2, DEFAULT_RETRY, () => 0)).toBe(0);
  });
});
