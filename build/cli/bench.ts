// npm run bench: every speed target in one run, as medians and ratios to the targets (the machine has
// two cores and may be shared: compare ratios, not single figures).
//   default: build 10k, rebuild 10k, search engine + static + relevance at 10k, HTTP search at 10k
//   --full:  also build 100k, search at 100k, HTTP search at 100k (several minutes)
import { benchBuild } from './bench-build.ts';
import { benchHttpSearch, httpLine } from './bench-http.ts';
import { benchRebuild } from './bench-rebuild.ts';
import { benchSearch } from './bench-search.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run bench [-- --full]
Every speed target in one run (build, rebuild, search, HTTP search at 10,000 contracts).
--full  also 100,000 contracts (several minutes).
`);

const full = process.argv.includes('--full');
const sizes = full ? [10_000, 100_000] : [10_000];
const rows: string[] = [];
const ratio = (value: number, target: number) => `${(value / target).toFixed(2)}× target`;
const row = (line: string) => {
  rows.push(line);
  console.log(line);
};

for (const n of sizes) {
  const r = await benchBuild(n);
  const target = n === 10_000 ? 10 : 90;
  row(
    `build n=${n}: ${r.secs.toFixed(1)} s (${ratio(r.secs, target)} ${target} s), ${Math.round(r.pagesPerSec)} pages/s, peak RSS ${Math.round(r.peakMb)} MB${n === 100_000 ? ' (target ≤ 2048 MB)' : ''}`,
  );
}

const rb = await benchRebuild(10_000);
row(
  `rebuild n=10000: write visible in API ${(rb.single.apiMedianMs / 1000).toFixed(2)} s (target ≤ 1 s), in every static file ${(rb.single.staticMedianMs / 1000).toFixed(2)} s (target ≤ 3 s), median of ${rb.single.staticMs.length}`,
);
row(
  `rebuild burst: ${rb.burst.ok}/${rb.burst.writes} writes in 10 s accepted, ${rb.burst.presentInSite}/${rb.burst.writes} in the final site, ${rb.burst.builds} build(s), complete ${(rb.burst.settleAfterLastWriteMs / 1000).toFixed(1)} s after the last write`,
);

for (const n of sizes) {
  console.log(`\n--- search n=${n} ---`);
  await benchSearch(n, { queries: 3000, passes: 3 });
  row(httpLine(await benchHttpSearch(n, 10)));
}
console.log(`\nsummary\n${rows.join('\n')}`);
