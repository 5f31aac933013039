// Data values in a query (build/search/literals.ts) become the word for their kind, so "2024-01-20" asks for a date
// tool instead of matching every text that holds "2024".
import { describe, expect, it } from 'vitest';
import { typeLiterals } from '../../../build/search/literals.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { firstAnswer } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('typeLiterals', () => {
  it('names dates, times, URLs, email and IP addresses, phone numbers, versions, UUIDs and colours by their kind', () => {
    expect(squash(typeLiterals('convert 2024-02-29t12:00:00z to a unix timestamp'))).toBe(
      'convert date time to a unix timestamp',
    );
    expect(squash(typeLiterals('convert 14:30 utc on 2024-01-10 to los angeles time'))).toBe(
      'convert time utc on date to los angeles time',
    );
    expect(squash(typeLiterals('meet at 7:45 pm'))).toBe('meet at time');
    expect(squash(typeLiterals('resolve ../a.html against https://example.com/docs/intro.html?x=1'))).toBe(
      'resolve ../a.html against url',
    );
    expect(squash(typeLiterals('write to bob.smith+news@mail.example.org'))).toBe('write to email address');
    expect(squash(typeLiterals('is 10.0.0.7 in 10.0.0.0/8'))).toBe('is ip address in ip address');
    expect(squash(typeLiterals('bump 1.2.3-beta.1 to the next minor'))).toBe('bump version to the next minor');
    expect(squash(typeLiterals('parse 123e4567-e89b-12d3-a456-426614174000'))).toBe('parse uuid');
    expect(squash(typeLiterals('which country is +33 1 42 68 53 00 from?'))).toBe(
      'which country is phone number from?',
    );
    expect(squash(typeLiterals('call +1 (415) 555-0100 now'))).toBe('call phone number now');
    expect(squash(typeLiterals('the hex colour #1e90ff or #fff'))).toBe('the hex colour color or color');
  });

  it('names a pair of decimal degrees as a latitude and longitude', () => {
    expect(squash(typeLiterals('how far apart are Paris (48.8566, 2.3522) and Berlin (52.5200, 13.4050)'))).toBe(
      'how far apart are Paris latitude longitude and Berlin latitude longitude',
    );
    expect(squash(typeLiterals('convert -33.8688,151.2093 to degrees and minutes'))).toBe(
      'convert latitude longitude to degrees and minutes',
    );
    expect(squash(typeLiterals('the point (40.71 N, 74.01 W)'))).toBe('the point latitude longitude');
  });

  it('names a dotted key path inside a document as a key path', () => {
    expect(squash(typeLiterals('get the value of address.city from a JSON file'))).toBe(
      'get the value of key path from a JSON file',
    );
    expect(squash(typeLiterals('read items[0].name from data.json'))).toBe('read key path from data.json');
    expect(squash(typeLiterals('set server.port in config.yaml'))).toBe('set key path in config.yaml');
  });

  it('leaves words, bare numbers, file, package and host names, abbreviations and anchors alone', () => {
    for (const s of [
      'add 45 days',
      'resize photo.jpg to 50%',
      'link to #section-2',
      'python3 and es2015',
      'a 3.5 inch disk',
      'bump the version in package.json',
      'like day.js or socket.io',
      'fetch example.com/robots.txt',
      'e.g. at 9 a.m. today',
      'build vue.config.js',
      'the mean of 1.250, 2.500, 3.750',
      'prices $12.500, $13.750',
      'scale by 1.5, 2.25',
    ])
      expect(typeLiterals(s)).toBe(s);
  });
});

describe('query plans with data values', () => {
  it('asks for the kind of value, not its digits', () => {
    const plan = planQuery('add 45 days to the date 2024-01-20', new Map());
    expect(plan.concepts).toContain('date');
    expect(plan.concepts).not.toContain('2024');
    expect(plan.concepts).not.toContain('01');
    // The exact-name key still comes from the text as typed.
    expect(planQuery('day.js 2024-01-20', new Map()).terms.some((t) => t.term === '=dayjs20240120')).toBe(true);
  });

  it('answers a distance between coordinates with the geographic tool, not one whose example holds a digit', () => {
    const contracts = [
      sampleContract('npm-evaluator-v1', {
        identity: { task: 'Evaluate a maths expression such as "2 * x^2 + 13"', tags: ['math'] },
        trust: { reliability_score: 0.97 },
      }),
      sampleContract('npm-geodistance-v1', {
        identity: { task: 'Compute the distance between two latitude/longitude points', tags: ['geo'] },
        trust: { reliability_score: 0.8 },
      }),
    ];
    const need = 'how far apart are Paris (48.8566, 2.3522) and Berlin (52.5200, 13.4050) as the crow flies';
    expect(planQuery(need, new Map()).concepts).not.toContain('2');
    expect(firstAnswer(contracts, need)).toBe('npm-geodistance-v1');
  });
});
