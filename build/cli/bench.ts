// npm run bench: every benchmark in one run, figures as medians and ratios to their targets.
// `--full` adds the 100,000-contract build (about a minute and a half on two cores).
import { benchBuild } from './bench-build.ts';

const full = process.argv.includes('--full');
const rows: string[] = [];
const ratio = (value: number, target: number) => `${(value / target).toFixed(2)}× of target`;

for (const n of full ? [10_000, 100_000] : [10_000]) {
  const r = await benchBuild(n);
  const target = n === 10_000 ? 10 : 90;
  rows.push(`build n=${n}: ${r.secs.toFixed(1)} s (${ratio(r.secs, target)} ${target} s), ${Math.round(r.pagesPerSec)} pages/s, peak RSS ${Math.round(r.peakMb)} MB`);
  console.log(rows.at(-1));
}
console.log(`\n${rows.join('\n')}`);
