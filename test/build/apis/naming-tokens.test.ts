// service_name rule and the token counter.
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { assignServiceNames, candidateName, providerLabel, type SpecId } from '../../../build/apis/naming.ts';
import { countTokens, distribution } from '../../../build/apis/tokens.ts';
import { FIXTURE_FILES, fixtureText } from './fixtures.ts';

describe('service names', () => {
  it.each([
    [{ provider: 'stripe.com' }, 'stripe_api'],
    [{ provider: 'googleapis.com', service: 'gmail' }, 'google_gmail_api'],
    [{ provider: 'amazonaws.com', service: 'AWSMigrationHub' }, 'aws_migration_hub_api'],
    [{ provider: 'azure.com', service: 'batch-BatchService' }, 'azure_batch_service_api'],
    [{ provider: 'twilio.com', service: 'twilio_messaging_v1' }, 'twilio_messaging_v1_api'],
    [{ provider: 'github.com', service: 'api.github.com' }, 'github_api'],
    [{ provider: 'vtex.local', service: 'Marketplace-APIs' }, 'vtex_marketplace_api'],
    [{ provider: 'apisetu.gov.in', service: 'transportjh' }, 'apisetu_transportjh_api'],
    [{ provider: 'rubrikinc.github.io' }, 'rubrikinc_api'],
  ] as [SpecId, string][])('%j → %s', (id, name) => {
    expect(candidateName(id)).toBe(name);
  });

  it('provider labels drop country-code second levels', () => {
    expect(providerLabel('bbc.co.uk')).toBe('bbc');
    expect(providerLabel('ato.gov.au')).toBe('ato');
  });

  it('collisions: different providers are qualified by domain; the same provider ranks by size', () => {
    const ids: SpecId[] = [
      { provider: 'google.home', size: 10 },
      { provider: 'google.com', size: 20 },
      { provider: 'github.com', size: 100 },
      { provider: 'github.com', service: 'api.github.com', size: 5_000_000 },
      { provider: 'stripe.com', size: 1 },
    ];
    const names = assignServiceNames(ids);
    expect(Object.fromEntries(names)).toEqual({
      'google.home': 'google_home_api',
      'google.com': 'google_com_api',
      'github.com': 'github_api_2',
      'github.com/api.github.com': 'github_api',
      'stripe.com': 'stripe_api',
    });
    // input order never matters
    expect(Object.fromEntries(assignServiceNames([...ids].reverse()))).toEqual(Object.fromEntries(names));
    expect(new Set(names.values()).size).toBe(ids.length);
  });
});

describe('countTokens', () => {
  const opts = { disallowedSpecial: new Set<string>() };

  it('equals gpt-tokenizer o200k countTokens on every fixture definition', () => {
    for (const file of FIXTURE_FILES) {
      const text = fixtureText(file);
      expect(countTokens(text), file).toBe(libraryCount(text, opts));
    }
  });

  it('equals it on awkward text: contractions, unicode, whitespace runs, quotes after words, special tokens', () => {
    const samples = [
      '',
      '"',
      'it\'s "quoted"\'s x',
      '{"a":"b","c":[1,22,333,4444]}   \n\n  "tail"',
      'naïve café "日本語"の説明 "Ünïcödé"s\t\t"x"',
      'ends with spaces   ',
      'a <|endoftext|> b "<|im_start|>"',
      'ABC"DEF"ghi"123"456789"',
    ];
    for (const s of samples) expect(countTokens(s), s).toBe(libraryCount(s, opts));
  });

  it('distribution: nearest-rank percentiles', () => {
    expect(distribution([5, 1, 3, 2, 4, 6, 7, 8, 9, 10])).toEqual({
      count: 10,
      total: 55,
      min: 1,
      median: 5,
      p90: 9,
      max: 10,
    });
    expect(distribution([])).toMatchObject({ count: 0, min: 0, max: 0 });
  });
});
