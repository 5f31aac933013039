// First answers in the field, through a real server: a search's answers are remembered for the client that
// asked, its reports (REST tax gate, MCP report_outcome) count by rank, and /health and /metrics show it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verdictOf } from '../../api/state/search-outcomes/records.ts';
import { mcpToolCall, startTestServer, type TestServer } from '../helpers/server.ts';

describe('search outcomes through the API', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Behind a proxy, so a test can speak as a second client (X-Forwarded-For).
    s = await startTestServer({ trustProxy: true });
  });
  afterAll(() => s.cleanup());

  const outcomes = async () => (await s.json('/health')).body.search_outcomes;

  it('credits fetch and use reports to the rank of the answer a REST search gave', async () => {
    const found = await s.json('/api/v1/tools?q=send+email');
    const [first, second] = found.body.results.map((r: { identity: { aid: string } }) => r.identity.aid);
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    // The protocol: 102 to fetch the full contract (no use yet), then the outcome of running it.
    const fetched = await s.post(`/api/v1/tools/${first}`, { execution_feedback: 102, trend_keyword: 'send email' });
    expect(fetched.status).toBe(200);
    expect((await outcomes()).fetched['1']).toBe(1);
    // It ran, but the agent votes that it did not do the task: not met.
    await s.post(`/api/v1/tools/${first}`, {
      execution_feedback: 200,
      trend_keyword: 'send email',
      validation_vote: 'no',
    });
    await s.post(`/api/v1/tools/${second}`, { execution_feedback: 200, trend_keyword: 'send email' });
    const o = await outcomes();
    expect(o).toMatchObject({
      searches: 1,
      searches_judged: 1,
      first_answer_met: 0,
      met_within_three: 1,
      first_answer_met_share: 0,
      met_within_three_share: 1,
    });
    expect(o.judged['1']).toEqual({ success: 0, failure: 1 });
    expect(o.judged['2']).toEqual({ success: 1, failure: 0 });
  });

  it('counts MCP searches and report_outcome alike, and a report without a search as unlinked', async () => {
    const before = await outcomes();
    const result = await mcpToolCall(s, 'search_tools', { query: 'convert markdown to html' });
    const aid = JSON.parse(result.content[0]!.text).results[0].identity.aid as string;
    const reported = await mcpToolCall(s, 'report_outcome', {
      aid,
      execution_feedback: 200,
      trend_keyword: 'markdown to html',
    });
    expect(reported.isError).toBeFalsy();
    const o = await outcomes();
    expect(o.searches).toBe(before.searches + 1);
    expect(o.first_answer_met).toBe(before.first_answer_met + 1);
    expect(o.first_answer_met_share).toBe(0.5);
    // The empty query (the top list) is not a need; a report from a client that never searched is unlinked.
    await s.json('/api/v1/tools');
    await s.post(
      `/api/v1/tools/${aid}`,
      { execution_feedback: 200, trend_keyword: 'markdown to html' },
      { 'x-forwarded-for': '203.0.113.9' },
    );
    const after = await outcomes();
    expect(after.searches).toBe(o.searches);
    expect(after.unlinked_reports).toBe(o.unlinked_reports + 1);
  });

  it('reads a report as a use that worked, one that did not, or a fetch', () => {
    expect(verdictOf(200)).toBe('success');
    expect(verdictOf(204, 'yes')).toBe('success');
    expect(verdictOf(200, 'no')).toBe('failure');
    expect(verdictOf(200, 'partial')).toBe('failure');
    expect(verdictOf(503, 'yes')).toBe('failure');
    expect(verdictOf(404)).toBe('failure');
    expect(verdictOf(102)).toBe('fetch');
    expect(verdictOf(302)).toBe('fetch');
  });

  it('exports the counts to /metrics', async () => {
    const text = await (await s.fetch('/metrics')).text();
    expect(text).toMatch(/^tcc_search_outcomes\{kind="first_answer_met"\} 1$/m);
    expect(text).toMatch(/^tcc_search_answers\{rank="2",verdict="success"\} 1$/m);
  });
});
