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
  const out: CorpusPackage[] = [];
  const ranks = { npm: 0, pypi: 0 };
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const raw = JSON.parse(line) as { registry: 'npm' | 'pypi'; name: string; version?: string; summary?: string; download_rank?: number };
    ranks[raw.registry] += 1;
    out.push({ registry: raw.registry, name: raw.name, version: raw.version ?? null, summary: raw.summary ?? '', rank: raw.download_rank ?? ranks[raw.registry] });
  }
  // Interleave registries the way the file does not: a small N should still hold both platforms.
  out.sort((a, b) => a.rank - b.rank || (a.registry < b.registry ? -1 : 1));
  return out.slice(0, limit);
}

/** Popularity prior in [0.52, 0.97]: the most downloaded package scores highest, on a log scale of rank. */
export function scoreFromRank(rank: number, population = 60_000): number {
  const s = 0.97 - (0.45 * Math.log10(Math.max(1, rank))) / Math.log10(population);
  return Math.round(Math.max(0.52, Math.min(0.97, s)) * 1000) / 1000;
}

export function contractFromPackage(pkg: CorpusPackage, aid: string): ToolContract {
  const npm = pkg.registry === 'npm';
  return {
    identity: {
      aid, name: pkg.name, version: pkg.version, task: pkg.summary.trim() || undefined,
      platform: pkg.registry, license: null,
    },
    logic: { input_schema: { type: 'any' }, output_schema: { type: 'any' } },
    trust: { reliability_score: scoreFromRank(pkg.rank), latency_ms: null, status: 'active' },
    action: {
      source_url: npm ? `https://www.npmjs.com/package/${pkg.name}` : `https://pypi.org/project/${pkg.name}/`,
      install_cmd: npm ? `npm install ${pkg.name}` : `pip install ${pkg.name}`,
      execute_cmd: null,
    },
    record: { verified: true, reliability_calculated_at: null },
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
  await writeFiles(catalogDir, contracts.map((c) => ({ path: `tools/${c.identity.aid}.json`, content: `${JSON.stringify(c, null, 2)}\n` })));
  return contracts;
}
