// Static search for CDN hosting: the catalog index split into small lunr index files, so the
// browser fetches only what one query needs (the shards of its terms, a few doc-store shards).
// Files under outDir (e.g. dist/search/):
//   manifest.json      N, term-shard boundaries, doc-shard size, platform runs, top-by-reliability
//   terms/<i>.json     {lunr: <serialized lunr.Index>, exp: {term: [[related, weight]...]}}
//                      one lunr field "t"; a posting's value is the integer weight from rank.ts
//                      (BM25F x prior), so a one-term lunr query returns exactly that weight
//   docs/<j>.json      [[id, name, task, platform, reliability], ...] for refs j*D .. j*D+D-1
//   expansions.json    the whole expansion table (for the API engine to load instead of learning it)
// Documents are numbered ("refs", base 36 in lunr) in id order, so ties resolve by id in both
// engines. IDF is global: df is the length of a term's posting list, N is in the manifest.
//   writeStaticSearch(docs, outDir, opts?) -> summary {files, bytes, termShards, docShards}
//   (expand.ts readExpansions reads expansions.json back)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lunr from 'lunr';
import {
  type AnalyzedDocument,
  analyzeDocument,
  averageLengths,
  knowledgeSignature,
  type SearchDocument,
  termWeights,
} from './documents.ts';
import { expansionsToJSON, learnExpansions } from './expand.ts';
import { learnTopicality } from './topicality.ts';
import { type KnowledgeOptions, withCatalogKnowledge } from './knowledge.ts';
import type { Expansions } from './plan.ts';
import { compareByPrior, RANK } from './rank.ts';

export const STATIC_FORMAT = 1;

export interface StaticManifest {
  format: number;
  /** Number of documents (the N of IDF). */
  n: number;
  /** First term of each term shard, sorted; shard i holds terms in [shards[i], shards[i+1]). */
  shards: string[];
  /** Documents per doc-store shard. */
  docShardSize: number;
  /** [platform, firstRef, endRef) runs over refs. */
  platforms: [string, number, number][];
  /** Refs by reliability desc (then id): the empty query. Per platform too. */
  top: number[];
  topByPlatform: Record<string, number[]>;
  /** Ranking parameters the shards were built with (diagnostics: rebuild when rank.ts changes). */
  rank: typeof RANK;
}

export type DocRow = [id: string, name: string, task: string, platform: string, reliability: number];

export interface StaticWriteOptions extends KnowledgeOptions {
  expansions?: Expansions;
  /** analyzeDocument() of each document, in the same order, if the caller already has it. */
  analyzed?: readonly AnalyzedDocument[];
  /** Target postings per term shard (default 600): smaller = fewer bytes per query, more files. */
  shardPostings?: number;
  /** Documents per doc-store shard (default 64). */
  docShardSize?: number;
  /** How many top-by-reliability refs the manifest lists for the empty query (default 50). */
  topCount?: number;
  /** Writes one file (`rel` under outDir, its folder made); default writeFileSync. */
  writeFile?: (rel: string, text: string) => void;
}

export interface StaticWriteSummary {
  files: number;
  bytes: number;
  termShards: number;
  docShards: number;
  expansions: Expansions;
}

export const ref36 = (r: number) => r.toString(36);

export function writeStaticSearch(
  raw: readonly SearchDocument[],
  outDir: string,
  opts: StaticWriteOptions = {},
): StaticWriteSummary {
  // The same knowledge the API engine adds (createSearchIndex); a given analysis is reused only
  // when it was made with the same knowledge.
  const docs = withCatalogKnowledge(raw, opts);
  const byId = new Map(docs.map((d, i) => [d.id, i]));
  const order = [...byId.values()].sort((a, b) => (docs[a]!.id < docs[b]!.id ? -1 : 1));
  const given = opts.analyzed && opts.analyzed.length === docs.length ? opts.analyzed : undefined;
  const analyzedAll = docs.map((d, i) => {
    const a = given?.[i];
    const same = a && a.id === d.id && a.about === knowledgeSignature(d) && a.mentions === (d.mentions ?? 0);
    return same ? a : analyzeDocument(d);
  });
  const sorted = order.map((i) => docs[i]!);
  const analyzed = order.map((i) => analyzedAll[i]!);
  const expansions = opts.expansions ?? learnExpansions(analyzed);
  const topicality = learnTopicality(analyzed);
  const avgLens = averageLengths(analyzed);
  const n = sorted.length;

  // Postings per term, refs ascending.
  const postings = new Map<string, number[]>(); // flat [ref, w, ref, w, ...]
  analyzed.forEach((a, ref) => {
    for (const [term, w] of termWeights(a, avgLens)) {
      let p = postings.get(term);
      if (!p) postings.set(term, (p = []));
      p.push(ref, w);
    }
  });

  // Shard keys: index terms plus expansion sources (their lists live in the shard of their range).
  const keys = [...new Set([...postings.keys(), ...expansions.keys()])].sort();
  const target = opts.shardPostings ?? 600;
  const shards: string[][] = [];
  let cur: string[] = [];
  let cost = 0;
  for (const k of keys) {
    const c = (postings.get(k)?.length ?? 0) / 2 + (expansions.get(k)?.length ?? 0) + 2;
    if (cur.length && cost + c > target) {
      shards.push(cur);
      cur = [];
      cost = 0;
    }
    cur.push(k);
    cost += c;
  }
  if (cur.length) shards.push(cur);

  // Only our subdirectories are replaced: outDir may also hold search.js and index.html.
  rmSync(path.join(outDir, 'terms'), { recursive: true, force: true });
  rmSync(path.join(outDir, 'docs'), { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'terms'), { recursive: true });
  mkdirSync(path.join(outDir, 'docs'), { recursive: true });
  let files = 0;
  let bytes = 0;
  const writeFile = opts.writeFile ?? ((rel: string, text: string) => writeFileSync(path.join(outDir, rel), text));
  // Shards are serialized by hand: the lunr JSON for 100k documents is ~40 MB, and building it
  // as objects first (one {} per posting) costs more than everything else in the build.
  const writeText = (rel: string, text: string) => {
    writeFile(rel, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  const write = (rel: string, value: unknown) => writeText(rel, JSON.stringify(value));
  shards.forEach((shardKeys, i) => {
    const terms = shardKeys.filter((k) => postings.has(k));
    const vectors = new Map<number, number[]>();
    const inverted: string[] = [];
    terms.forEach((term, ti) => {
      const p = postings.get(term)!;
      const refs: string[] = [];
      for (let j = 0; j < p.length; j += 2) {
        const ref = p[j]!;
        refs.push(`"${ref36(ref)}":{}`);
        let v = vectors.get(ref);
        if (!v) vectors.set(ref, (v = []));
        v.push(ti, p[j + 1]!);
      }
      inverted.push(`[${JSON.stringify(term)},{"_index":${ti},"t":{${refs.join(',')}}}]`);
    });
    const fieldVectors = [...vectors]
      .sort((a, b) => a[0] - b[0])
      .map(([ref, v]) => `["t/${ref36(ref)}",[${v.join(',')}]]`);
    const exp: Record<string, (readonly [string, number])[]> = {};
    for (const k of shardKeys) {
      const e = expansions.get(k);
      if (e?.length) exp[k] = [...e];
    }
    const topic: Record<string, number> = {};
    for (const term of terms) {
      const scale = topicality.get(term);
      if (scale !== undefined) topic[term] = scale;
    }
    const index = `{"version":${JSON.stringify(lunr.version)},"fields":["t"],"fieldVectors":[${fieldVectors.join(',')}],"invertedIndex":[${inverted.join(',')}],"pipeline":[]}`;
    writeText(`terms/${i}.json`, `{"lunr":${index},"exp":${JSON.stringify(exp)},"topic":${JSON.stringify(topic)}}`);
  });

  const docShardSize = opts.docShardSize ?? 64;
  for (let j = 0; j * docShardSize < n; j++) {
    const rows: DocRow[] = sorted
      .slice(j * docShardSize, (j + 1) * docShardSize)
      .map((d) => [d.id, d.display.name, d.display.task, d.display.platform, d.display.reliability]);
    write(`docs/${j}.json`, rows);
  }

  const platforms: [string, number, number][] = [];
  sorted.forEach((d, ref) => {
    const last = platforms[platforms.length - 1];
    if (last && last[0] === d.platform && last[2] === ref) last[2] = ref + 1;
    else platforms.push([d.platform, ref, ref + 1]);
  });
  const topCount = opts.topCount ?? 50;
  const byPrior = sorted
    .map((d, ref) => ({ id: d.id, prior: d.prior, ref, platform: d.platform }))
    .sort(compareByPrior);
  const topByPlatform: Record<string, number[]> = {};
  for (const x of byPrior) {
    const list = (topByPlatform[x.platform] ??= []);
    if (list.length < topCount) list.push(x.ref);
  }
  const manifest: StaticManifest = {
    format: STATIC_FORMAT,
    n,
    shards: shards.map((s) => s[0]!),
    docShardSize,
    platforms,
    top: byPrior.slice(0, topCount).map((x) => x.ref),
    topByPlatform,
    rank: RANK,
  };
  write('manifest.json', manifest);
  write('expansions.json', expansionsToJSON(expansions));
  return { files, bytes, termShards: shards.length, docShards: Math.ceil(n / docShardSize), expansions };
}
