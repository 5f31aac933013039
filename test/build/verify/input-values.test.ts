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

describe('fillInput for files named inside URLs, and media links', () => {
  it('puts the sample database where a relative sqlite:/// URL points, keeping the URL', () => {
    const r = fillInput('database_url', { role: 'url', examples: ['sqlite:///data/people.db'] });
    expect(r).toMatchObject({
      value: 'sqlite:///data/people.db',
      sample: 'sample.sqlite',
      samplePath: 'data/people.db',
    });
    expect(fillInput('db', { role: 'url', examples: ['sqlite+pysqlite:///app.sqlite3'] })).toMatchObject({
      samplePath: 'app.sqlite3',
    });
    // An absolute path is the user's machine, not the work folder; an escape is never followed.
    for (const example of ['sqlite:////var/db/app.db', 'sqlite:///../outside.db', 'sqlite://']) {
      const kept = fillInput('database_url', { role: 'url', examples: [example] });
      expect(kept.value).toBe(example);
      expect(kept.samplePath).toBeUndefined();
    }
  });

  it('points a URL said to be a video or a sound at the sample video or sound, other URLs at the page', () => {
    const video = fillInput('url', { role: 'url', description: 'Video page URL', examples: ['https://youtu.be/x'] });
    expect(video).toMatchObject({ fixture: true, value: expect.stringMatching(/\/sample\.mp4$/) });
    const audio = fillInput('audio_url', { role: 'url', examples: ['https://example.com/a.mp3'] });
    expect(audio.value).toMatch(/\/sample\.wav$/);
    const page = fillInput('url', { role: 'url', description: 'Page to fetch', examples: ['https://example.com/'] });
    expect(page.value).toMatch(/\/sample\.html$/);
  });
});

describe('fillInput for optional files', () => {
  const optional = { type: 'string', role: 'input_file' as const, default: '', examples: ['sample.txt'] };

  it('stages a sample when nobody gives a value, so verification runs the file path too', () => {
    const r = fillInput('text_file', optional);
    expect(r.value).not.toBe('');
    expect(r.sample).toBe('sample.txt');
  });

  it('leaves the file out when the caller gives an empty value: no sample may stand in for it', () => {
    const r = fillInput('text_file', optional, '');
    expect(r).toEqual({ value: '', source: 'given' });
  });

  it('still stages what the caller names', () => {
    const r = fillInput('text_file', optional, 'in/notes.txt');
    expect(r.value).toBe('in/notes.txt');
  });
});
