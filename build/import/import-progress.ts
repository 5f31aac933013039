// Progress of an import on stderr: a bar redrawn in place on a terminal, one plain line per item otherwise
// (logs, CI, a pipe), so a long run can be followed either way.
import type { ItemResult, Outcome } from './import-state.ts';

export interface ImportProgress {
  item(result: ItemResult): void;
  done(): void;
}

export function createImportProgress(total: number, stream: NodeJS.WriteStream = process.stderr): ImportProgress {
  const live = Boolean(stream.isTTY) && !process.env.CI;
  const counts: Record<Outcome, number> = { new: 0, updated: 0, unchanged: 0, failed: 0 };
  let finished = 0;
  let last = 0;
  const draw = () => {
    const width = 30;
    const filled = total ? Math.round((finished / total) * width) : width;
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const tally = `new ${counts.new} · updated ${counts.updated} · unchanged ${counts.unchanged} · failed ${counts.failed}`;
    stream.write(`\r${bar} ${finished}/${total}  ${tally}\x1b[K`);
  };
  return {
    item(result) {
      finished++;
      counts[result.outcome]++;
      if (!live) {
        const what = result.aid ?? result.key;
        stream.write(`${result.outcome} ${what}${result.reason ? `: ${result.reason}` : ''}\n`);
        return;
      }
      const now = performance.now();
      if (now - last > 100 || finished === total) {
        last = now;
        draw();
      }
    },
    done() {
      if (live) {
        draw();
        stream.write('\n');
      }
    },
  };
}
