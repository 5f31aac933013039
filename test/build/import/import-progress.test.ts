// The importer's progress: a bar redrawn in place on a terminal, plain lines anywhere else.
import { describe, expect, it } from 'vitest';
import { createImportProgress } from '../../../build/import/import-progress.ts';

const stream = (isTTY: boolean) => {
  const out: string[] = [];
  return { out, s: { isTTY, write: (t: string) => out.push(t) } as unknown as NodeJS.WriteStream };
};

describe('import progress', () => {
  it('draws a bar with the counts on a TTY, ending with a newline', () => {
    const saved = process.env.CI;
    delete process.env.CI;
    try {
      const { out, s } = stream(true);
      const p = createImportProgress(2, s);
      p.item({ key: 'a', outcome: 'new', aid: 'npm-a-v1' });
      p.item({ key: 'b', outcome: 'failed', reason: 'gone' });
      p.done();
      expect(out.every((l) => l.startsWith('\r') || l === '\n')).toBe(true);
      expect(out.at(-2)).toMatch(/^\r█{30} 2\/2 {2}new 1 · updated 0 · unchanged 0 · failed 1/);
      expect(out.at(-1)).toBe('\n');
    } finally {
      if (saved !== undefined) process.env.CI = saved;
    }
  });

  it('writes one plain line per item when not a TTY', () => {
    const { out, s } = stream(false);
    const p = createImportProgress(2, s);
    p.item({ key: 'a', outcome: 'new', aid: 'npm-a-v1' });
    p.item({ key: 'b', outcome: 'failed', reason: 'npm registry answered 500' });
    p.done();
    expect(out).toEqual(['new npm-a-v1\n', 'failed b: npm registry answered 500\n']);
  });
});
