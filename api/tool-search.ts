// Ranking for the API, behind one seam: createToolSearch (tools) and TextIndex (also API manifests).
// Interim engine: an in-memory inverted index with light stemming, prefix and substring matches, a few
// intent synonyms and idf weighting; relevance in 0..1, combined with reliability_score.
// TODO(search): build/search/ (incremental index, build/upsert/remove/search) does not exist yet; when its
// exports land, make createToolSearch delegate to it and keep this file's interface.
import type { Platform, ToolContract } from '../build/contract.ts';
import type { Snapshot } from '../build/snapshot.ts';
import { byReliability } from '../build/views.ts';

const STOP = new Set(
  'a an and any are as at be by can do for from get how i in into is it its me my of on or some that the this to use using want way we with without you your'.split(' '),
);

// Intent words that a contract may say differently. Kept tiny on purpose: the real engine brings a thesaurus.
const SYNONYMS: Record<string, string[]> = {
  email: ['mail', 'smtp', 'mailer'], mail: ['email', 'smtp'], http: ['request', 'fetch', 'client'],
  request: ['http', 'fetch'], fetch: ['http', 'request'], postgres: ['postgresql', 'pg'], postgresql: ['postgres', 'pg'],
  db: ['database'], database: ['db', 'sql'], yaml: ['yml'], yml: ['yaml'], image: ['img', 'picture'],
  terminal: ['cli', 'console'], cli: ['terminal', 'command'], llm: ['language', 'model', 'gpt'], test: ['testing'],
  speech: ['audio', 'voice'], transcribe: ['transcription', 'speech'], scrape: ['scraping', 'crawl'],
};

export function stem(t: string): string {
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && /(ss|x|ch|sh)es$/.test(t)) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) return t.slice(0, -1);
  if (t.length > 5 && t.endsWith('ing')) return t.slice(0, -3);
  if (t.length > 4 && t.endsWith('ed')) return t.slice(0, -2);
  return t;
}

export function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 && !STOP.has(t))
    .map(stem);
}

export interface IndexedField {
  text: string;
  /** 0..1: how strongly a match in this field says "this is what you asked for". */
  weight: number;
}

export interface Hit<T> {
  doc: T;
  relevance: number;
}

export class TextIndex<T> {
  private docs = new Map<string, { doc: T; terms: Map<string, number> }>();
  private postings = new Map<string, Map<string, number>>();
  private vocab: string[] | null = null;

  get size(): number {
    return this.docs.size;
  }

  upsert(id: string, doc: T, fields: IndexedField[]): void {
    this.remove(id);
    const terms = new Map<string, number>();
    for (const f of fields) for (const t of tokenize(f.text)) terms.set(t, Math.max(terms.get(t) ?? 0, f.weight));
    this.docs.set(id, { doc, terms });
    for (const [t, w] of terms) {
      let p = this.postings.get(t);
      if (!p) { p = new Map(); this.postings.set(t, p); this.vocab = null; }
      p.set(id, w);
    }
  }

  remove(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    this.docs.delete(id);
    for (const t of old.terms.keys()) {
      const p = this.postings.get(t);
      p?.delete(id);
      if (p?.size === 0) { this.postings.delete(t); this.vocab = null; }
    }
  }

  /** Best match per document for one query word: exact 1, prefix 0.7, inside a longer word 0.5 (x field weight). */
  private matchWord(word: string, factor: number, into: Map<string, number>): void {
    const add = (term: string, m: number) => {
      for (const [id, w] of this.postings.get(term) ?? []) into.set(id, Math.max(into.get(id) ?? 0, w * m * factor));
    };
    add(word, 1);
    if (word.length < 3) return;
    this.vocab ??= [...this.postings.keys()];
    for (const term of this.vocab) {
      if (term === word) continue;
      if (term.startsWith(word)) add(term, 0.7);
      else if (word.length >= 4 && term.includes(word)) add(term, 0.5);
    }
  }

  search(query: string, accept: (doc: T) => boolean = () => true): Hit<T>[] {
    const words = [...new Set(tokenize(query))];
    if (words.length === 0 || this.docs.size === 0) return [];
    const n = this.docs.size;
    const scores = new Map<string, number>();
    let idfSum = 0;
    for (const word of words) {
      const best = new Map<string, number>();
      this.matchWord(word, 1, best);
      for (const syn of SYNONYMS[word] ?? []) this.matchWord(stem(syn), 0.6, best);
      // Rare words decide more than common ones ("transactional" over "send").
      const idf = Math.log(1 + n / Math.max(1, best.size));
      idfSum += idf;
      for (const [id, s] of best) scores.set(id, (scores.get(id) ?? 0) + s * idf);
    }
    const hits: Hit<T>[] = [];
    for (const [id, s] of scores) {
      const entry = this.docs.get(id);
      if (entry && accept(entry.doc)) hits.push({ doc: entry.doc, relevance: s / idfSum });
    }
    return hits;
  }
}

export interface ToolSearch {
  /** Empty query: the top tools by reliability. Otherwise relevance combined with reliability. */
  search(q: string, options: { platform?: Platform | ''; limit: number }): ToolContract[];
  upsert(contract: ToolContract): void;
  remove(aid: string): void;
}

/** Unverified and dead contracts stay reachable by aid but are never listed or found. */
export const isListable = (c: ToolContract) => c.record?.verified !== false && c.trust.status !== 'dead';

const schemaText = (s: ToolContract['logic']['input_schema']) =>
  [s.type, s.description, s.format, ...Object.entries(s.properties ?? {}).flatMap(([k, p]) => [k, p.description])].flat().filter(Boolean).join(' ');

export function toolFields(c: ToolContract): IndexedField[] {
  return [
    { text: `${c.identity.aid} ${c.identity.name}`, weight: 1 },
    { text: (c.identity.tags ?? []).join(' '), weight: 0.8 },
    { text: c.identity.task ?? '', weight: 0.8 },
    { text: `${c.action.install_cmd ?? ''} ${c.action.execute_cmd ?? ''}`, weight: 0.5 },
    { text: `${schemaText(c.logic.input_schema)} ${schemaText(c.logic.output_schema)}`, weight: 0.3 },
    { text: c.identity.platform, weight: 0.3 },
  ];
}

/** Text relevance decides; reliability moves a result by up to half (0.5 + 0.5 x score). */
export const combined = (relevance: number, reliability: number) => relevance * (0.5 + 0.5 * reliability);

export function createToolSearch(snapshot: Snapshot): ToolSearch {
  const index = new TextIndex<ToolContract>();
  const all = new Map<string, ToolContract>();
  let ranked: ToolContract[] | null = null;
  const upsert = (c: ToolContract) => {
    all.set(c.identity.aid, c);
    index.upsert(c.identity.aid, c, toolFields(c));
    ranked = null;
  };
  for (const c of snapshot.tools) upsert(c);
  return {
    search(q, { platform, limit }) {
      const accept = (c: ToolContract) => isListable(c) && (!platform || c.identity.platform === platform);
      if (tokenize(q).length === 0) {
        ranked ??= [...all.values()].filter(isListable).sort(byReliability);
        return ranked.filter(accept).slice(0, limit);
      }
      return index
        .search(q, accept)
        .map((h) => ({ c: h.doc, s: combined(h.relevance, h.doc.trust.reliability_score) }))
        .sort((a, b) => b.s - a.s || byReliability(a.c, b.c))
        .slice(0, limit)
        .map((h) => h.c);
    },
    upsert,
    remove(aid) {
      all.delete(aid);
      index.remove(aid);
      ranked = null;
    },
  };
}
