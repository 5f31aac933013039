// The search route's pre-serialised listing JSON must be byte-for-byte what JSON.stringify gives for the
// listing objects (which MCP still serves): checked on every bundled contract, on odd shapes generated
// by fast-check, and over HTTP against the object route after real telemetry changed the counters.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingItemJson } from '../../api/services/listing-json.ts';
import { listingItems } from '../../api/services/tools.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { LISTING_NOTE, listingItem, type TrustTelemetry } from '../../build/model/views.ts';
import { BASE_URL, startTestServer, type TestServer } from '../helpers/server.ts';

const CATALOG = path.resolve(import.meta.dirname, '../../catalog/tools');
const telemetry: TrustTelemetry = { requests: 3, success_rate: 0.667, votes: { yes: 1, no: 0, partial: 2 } };

describe('listingItemJson', () => {
  it('equals JSON.stringify(listingItem(...)) for every bundled contract, for two base URLs', async () => {
    const files = (await fsp.readdir(CATALOG)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(200);
    for (const f of files) {
      const c = JSON.parse(await fsp.readFile(path.join(CATALOG, f), 'utf8')) as ToolContract;
      for (const base of ['https://a.example', 'http://127.0.0.1:9']) {
        expect(listingItemJson(c, base, telemetry)).toBe(JSON.stringify(listingItem(c, base, telemetry)));
      }
    }
  });

  it('equals it for odd shapes: empty or telemetry-holding trust, unicode, quotes, undefined fields', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const trust = fc.oneof(
      fc.constant({}),
      fc.record({
        reliability_score: fc.double({ noNaN: true }),
        status: fc.option(text, { nil: undefined }),
        latency_ms: fc.option(fc.integer(), { nil: null }),
      }),
      fc.record({ reliability_score: fc.double({ noNaN: true }), telemetry: fc.jsonValue() }),
    );
    const contract = fc.record({
      identity: fc.record({
        aid: fc.stringMatching(/^[a-z0-9-]{1,30}$/),
        name: text,
        task: fc.option(text, { nil: undefined }),
        platform: fc.constantFrom('npm', 'pypi', 'github'),
      }),
      logic: fc.record({ input_schema: fc.jsonValue(), output_schema: fc.jsonValue() }),
      trust,
      action: fc.record({ install_cmd: fc.option(text, { nil: null }) }),
      record: fc.option(
        fc.record({
          verification: fc.record({
            status: fc.constantFrom('passed', 'failed', 'unverifiable'),
            level: fc.option(fc.constantFrom('runs', 'loads'), { nil: undefined }),
            reason: text,
            checked_at: fc.constant('2026-11-25T00:00:00.000Z'),
            runtime: fc.option(text, { nil: null }),
            install_ms: fc.constant(null),
            execute_ms: fc.constant(null),
          }),
        }),
        { nil: undefined },
      ),
    });
    const tele = fc.record({
      requests: fc.nat(),
      success_rate: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      votes: fc.record({ yes: fc.nat(), no: fc.nat(), partial: fc.nat() }),
    });
    fc.assert(
      fc.property(contract, tele, (c, t) => {
        const tool = c as unknown as ToolContract;
        expect(listingItemJson(tool, BASE_URL, t)).toBe(JSON.stringify(listingItem(tool, BASE_URL, t)));
        // The second call reads the cached parts.
        expect(listingItemJson(tool, BASE_URL, t)).toBe(JSON.stringify(listingItem(tool, BASE_URL, t)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('GET /api/v1/tools and /trending bytes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.cleanup());

  it('are the JSON of the documented listing objects, with live counters, for searches, categories and the top list', async () => {
    // Real reports move the counters of a tool that appears in the listings below.
    for (const feedback of [200, 200, 500]) {
      const r = await s.post('/api/v1/tools/npm-axios-v1', {
        execution_feedback: feedback,
        trend_keyword: 'http requests',
        validation_vote: 'yes',
      });
      expect(r.status).toBe(200);
    }
    const ctx = s.running.ctx;
    // The documents as spec'd, built from listing objects (the same ranking gives the same tools).
    const items = (q: string, category: '' | 'npm' | 'pypi' | 'github', limit = 10) =>
      listingItems(ctx, ctx.toolSearch.search(q, { platform: category, limit }));
    const toolList = async (q: string, category: '' | 'npm' | 'pypi' | 'github') => {
      const results = await items(q, category);
      return { query: q, category, count: results.length, results, note: LISTING_NOTE };
    };
    const cases: [string, string, '' | 'npm' | 'pypi' | 'github'][] = [
      ['', '', ''],
      ['?q=http%20client', 'http client', ''],
      ['?q=http&category=npm', 'http', 'npm'],
      ['?q=%22quoted%22%20%E2%9C%93', '"quoted" ✓', ''],
      ['?q=zzzznotfound', 'zzzznotfound', ''],
    ];
    for (const [query, q, category] of cases) {
      const res = await s.fetch(`/api/v1/tools${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(await res.text()).toBe(JSON.stringify(await toolList(q, category)));
    }
    const axios = JSON.parse(await (await s.fetch('/api/v1/tools?q=axios')).text()).results.find(
      (r: { identity: { aid: string } }) => r.identity.aid === 'npm-axios-v1',
    );
    expect(axios.trust.telemetry).toEqual({ requests: 3, success_rate: 0.667, votes: { yes: 3, no: 0, partial: 0 } });
    const trending = await s.fetch('/api/v1/tools/trending?limit=7');
    const top = await items('', '', 7);
    expect(await trending.text()).toBe(JSON.stringify({ count: top.length, results: top }));
  });
});
