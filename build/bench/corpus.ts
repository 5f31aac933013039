// Turns the real-package corpus (100,000 npm and PyPI packages) into catalog contracts for benchmarks
// and relevance work. Deterministic: the same N gives the same contracts, so figures are comparable.
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { slugForAid } from '../model/aid.ts';
import type { ToolContract } from '../model/contract.ts';
import { writeFiles } from '../pipeline/write-files.ts';

export interface CorpusPackage {
  registry: 'npm' | 'pypi';
  name: string;
  version: string | null;
  summary: string;
  /** 1 = most downloaded within its registry (npm lines carry monthly_downloads, PyPI lines a rank). */
  rank: number;
  /** Download percentile within its registry in the corpus (trust.popularity), see popularityPercentiles. */
  popularity?: number | null;
}

export interface RawLine {
  registry: 'npm' | 'pypi';
  name: string;
  version?: string;
  summary?: string;
  monthly_downloads?: number | null;
  download_rank?: number | null;
}

// Ships with the repository (build/bench/data/README.md says where it comes from); CORPUS_PATH overrides.
const BUNDLED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'data/packages-100k.jsonl.gz');

export function corpusPath(): string {
  const file = process.env.CORPUS_PATH || BUNDLED;
  if (!existsSync(file)) throw new Error(`corpus not found at ${file} (CORPUS_PATH overrides the bundled one)`);
  return file;
}

/** Reads the first `limit` packages, in file order (which is popularity order within each registry). */
export async function readCorpus(limit = Infinity, file = corpusPath()): Promise<CorpusPackage[]> {
  const raws: RawLine[] = [];
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) raws.push(JSON.parse(line) as RawLine);
  // Percentiles over the whole file, so a package's popularity does not depend on how many are read.
  const popularity = popularityPercentiles(raws);
  const ranks = { npm: 0, pypi: 0 };
  const out = raws.map((raw, i): CorpusPackage => {
    ranks[raw.registry] += 1;
    const rank = raw.download_rank ?? ranks[raw.registry];
    const summary = raw.summary ?? '';
    const version = raw.version ?? null;
    return { registry: raw.registry, name: raw.name, version, summary, rank, popularity: popularity[i] };
  });
  // Interleave registries the way the file does not: a small N should still hold both platforms.
  out.sort((a, b) => a.rank - b.rank || (a.registry < b.registry ? -1 : 1));
  return out.slice(0, limit);
}

/**
 * Download percentile of each line within its registry, in [0,1] (1 = most downloaded): npm by
 * monthly_downloads, PyPI by download_rank. Ties share their mid-rank, so the PyPI packages the
 * corpus has no rank for (they are below its 15,000 ranked ones) share one low percentile.
 */
export function popularityPercentiles(raws: readonly RawLine[]): (number | null)[] {
  const out: (number | null)[] = raws.map(() => null);
  for (const registry of ['npm', 'pypi'] as const) {
    // Larger key = more downloaded; null keys are "less than every known one".
    const idx = raws.flatMap((r, i) => (r.registry === registry ? [i] : []));
    const key = (i: number) => {
      const r = raws[i]!;
      return registry === 'npm' ? (r.monthly_downloads ?? -1) : r.download_rank == null ? -Infinity : -r.download_rank;
    };
    idx.sort((a, b) => key(b) - key(a));
    const n = idx.length;
    for (let i = 0; i < n; ) {
      let j = i;
      while (j + 1 < n && key(idx[j + 1]!) === key(idx[i]!)) j++;
      const midRank = (i + j) / 2 + 1;
      const p = Math.round((1 - (midRank - 0.5) / n) * 10_000) / 10_000;
      for (let k = i; k <= j; k++) out[idx[k]!] = p;
      i = j + 1;
    }
  }
  return out;
}

/**
 * Reliability in coarse bands, as trust scores from verification, telemetry and review are: a hash
 * of the package's registry and name picks the band, so reliability says nothing about popularity
 * (an earlier version derived it from the download rank, and search learned to read it as such).
 */
export const RELIABILITY_BANDS = [0.72, 0.8, 0.86, 0.9, 0.93, 0.95, 0.97] as const;

export function bandedReliability(registry: string, name: string): number {
  let h = 0x811c9dc5; // FNV-1a
  for (const ch of `${registry}:${name}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return RELIABILITY_BANDS[h % RELIABILITY_BANDS.length]!;
}

// When the corpus's download figures were taken (build/bench/data/README.md).
const CORPUS_DATE = '2026-11-01T00:00:00Z';
const CORPUS_POPULARITY_SOURCE = {
  npm: 'corpus: npm monthly downloads, percentile within npm',
  pypi: 'corpus: PyPI download rank, percentile within PyPI',
};

export function contractFromPackage(pkg: CorpusPackage, aid: string): ToolContract {
  const npm = pkg.registry === 'npm';
  return {
    identity: {
      aid,
      name: pkg.name,
      version: pkg.version,
      task: pkg.summary.trim() || undefined,
      platform: pkg.registry,
      license: null,
    },
    logic: { input_schema: { type: 'any' }, output_schema: { type: 'any' } },
    trust: {
      reliability_score: bandedReliability(pkg.registry, pkg.name),
      latency_ms: null,
      status: 'active',
      popularity: pkg.popularity ?? null,
    },
    action: {
      source_url: npm ? `https://www.npmjs.com/package/${pkg.name}` : `https://pypi.org/project/${pkg.name}/`,
      install_cmd: npm ? `npm install ${pkg.name}` : `pip install ${pkg.name}`,
      execute_cmd: null,
    },
    record: {
      verified: true,
      reliability_calculated_at: null,
      popularity_source: pkg.popularity == null ? null : CORPUS_POPULARITY_SOURCE[pkg.registry],
      popularity_measured_at: pkg.popularity == null ? null : CORPUS_DATE,
    },
  };
}

/** N contracts from the corpus with unique aids (`<platform>-<name>-v1`, suffixed on case collisions). */
export async function corpusContracts(n: number): Promise<ToolContract[]> {
  const seen = new Set<string>();
  const out: ToolContract[] = [];
  for (const pkg of await readCorpus(n)) {
    const base = `${pkg.registry}-${slugForAid(pkg.name)}`;
    let aid = `${base}-v1`;
    for (let i = 2; seen.has(aid); i++) aid = `${base}-${i}-v1`;
    seen.add(aid);
    out.push(contractFromPackage(pkg, aid));
  }
  return out;
}

/** Writes N corpus contracts as a catalog's tool files (`<catalogDir>/tools/<aid>.json`), for benchmarks; returns them. */
export async function writeCorpusCatalog(catalogDir: string, n: number): Promise<ToolContract[]> {
  const contracts = await corpusContracts(n);
  await writeFiles(
    catalogDir,
    contracts.map((c) => ({ path: `tools/${c.identity.aid}.json`, content: `${JSON.stringify(c, null, 2)}\n` })),
  );
  return contracts;
}
