// How the verifier fills a URL placeholder: web addresses go to the sandbox's fixture server (the execute step
// has no network), addresses of other servers (redis://, mongodb://, smtps://) are kept as the contract gives them.
import { describe, expect, it } from 'vitest';
import { fillInput } from '../../../build/verify/input-values.ts';

describe('fillInput for URLs', () => {
  it('points a web URL at the fixture server', () => {
    const r = fillInput('url', { type: 'string', role: 'url', examples: ['https://example.com/'] });
    expect(r).toMatchObject({ fixture: true });
    expect(r.value).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sample\.html$/);
  });

  it('keeps a connection string of another kind, which the fixture server could never answer', () => {
    for (const example of [
      'redis://127.0.0.1:6379',
      'mongodb://localhost:27017/test',
      'smtps://u:p@smtp.example.com',
    ]) {
      const r = fillInput('connection_url', { type: 'string', role: 'url', examples: [example] });
      expect(r.value).toBe(example);
      expect(r.fixture).toBeUndefined();
    }
  });

  it("keeps a service on the user's own machine (loopback host and port): a sample page cannot answer for it", () => {
    for (const example of [
      'http://localhost:8000',
      'http://127.0.0.1:6333/',
      'http://localhost:3000/mcp',
      'https://github.com/steveukx/git-js.git',
    ]) {
      const r = fillInput('server_url', { type: 'string', role: 'url', examples: [example] });
      expect(r.value).toBe(example);
      expect(r.fixture).toBeUndefined();
    }
    // A loopback address without a port is still a page the fixture can stand in for.
    expect(fillInput('url', { role: 'url', examples: ['http://localhost/index.html'] }).fixture).toBe(true);
  });

  it('lets a value the caller gives win', () => {
    expect(fillInput('url', { role: 'url', examples: ['https://example.com/'] }, 'http://x.test/').value).toBe(
      'http://x.test/',
    );
  });
});
