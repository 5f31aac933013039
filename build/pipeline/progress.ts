// Progress for long builds: counts and rate on a TTY, silent under CI or when output is piped.
export interface Progress {
  tick(n?: number): void;
  done(): void;
}

export function createProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const live = Boolean(stream.isTTY) && !process.env.CI;
  const start = performance.now();
  let count = 0;
  let last = 0;
  const draw = (final: boolean) => {
    const secs = (performance.now() - start) / 1000;
    const rate = secs > 0 ? Math.round(count / secs) : 0;
    stream.write(`\r${label}: ${count}/${total} (${rate}/s)${final ? '\n' : ''}`);
  };
  return {
    tick(n = 1) {
      count += n;
      if (!live) return;
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        draw(false);
      }
    },
    done() {
      if (live) draw(true);
    },
  };
}
