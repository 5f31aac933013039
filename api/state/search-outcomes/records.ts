// How a report changes what a client's recent searches hold, for every backend: one pure function, so the
// in-process and Redis stores count alike. Counters are flat names (`judged:1:success`) so a backend can add
// each delta as it is (Redis HINCRBY); totalsOf turns them back into SearchOutcomeTotals.
import {
  ANSWERS_PER_SEARCH,
  emptySearchOutcomeTotals,
  RANK_BUCKETS,
  type RankBucket,
  type ReportVerdict,
  SEARCH_WINDOW_MS,
  type SearchOutcomeTotals,
} from './types.ts';

/** What an answer of a search has been reported as so far. */
const NONE = 0;
const FETCHED = 1;
const SUCCESS = 2;
const FAILURE = 3;

/** One search as a client's recent searches keep it (serialised as JSON by the Redis store). */
export interface SearchRecord {
  at: number;
  aids: string[];
  /** Per answer, in order: NONE, FETCHED, SUCCESS or FAILURE (the latest judged report wins). */
  states: number[];
  /** 32-bit hashes of the query's words (not the text): to tell which search a report's keyword is about. */
  words: number[];
}

export type CounterDeltas = Record<string, number>;

/**
 * What a report says about the answer: it ran (2xx) and the agent did not vote that it missed the task (no
 * vote, or `yes`) is a success; 4xx/5xx, or 2xx voted `no` or `partial` ("it ran but did not do the task"),
 * a failure; 1xx and 3xx (the protocol's lookup before use) a fetch.
 */
export function verdictOf(executionFeedback: number, vote?: string): ReportVerdict {
  if (executionFeedback >= 400) return 'failure';
  if (executionFeedback < 200 || executionFeedback > 299) return 'fetch';
  return vote === 'no' || vote === 'partial' ? 'failure' : 'success';
}

// FNV-1a: a stable small hash, the same in every process.
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The hashed words of a query or a trend keyword (lower case, each once): words of 3 letters or more and every
 * number, so "SHA-1" and "SHA-512" differ, and each pair of neighbours in order, so "a GIF image to PNG" and "a
 * PNG image to GIF" differ.
 */
export function wordKeys(text: string): number[] {
  const words = (text.toLowerCase().match(/\p{L}{3,}|\p{N}+/gu) ?? []).slice(0, 32);
  return [...new Set([...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)].map(hashWord))];
}

export const newSearchRecord = (query: string, aids: readonly string[], now: number): SearchRecord => {
  const kept = aids.slice(0, ANSWERS_PER_SEARCH);
  return { at: now, aids: kept, states: kept.map(() => NONE), words: wordKeys(query) };
};

export function rankBucket(index: number): RankBucket {
  return index < 3 ? (RANK_BUCKETS[index] as RankBucket) : '4-10';
}

/** What a search as a whole shows: judged at all, its first answer met, met within three. */
function searchFlags(states: readonly number[]) {
  return {
    searches_judged: states.some((s) => s === SUCCESS || s === FAILURE),
    first_answer_met: states[0] === SUCCESS,
    met_within_three: states.slice(0, 3).includes(SUCCESS),
  };
}

export type Credit =
  /** The report names no answer of the client's recent searches. */
  | { linked: false; deltas: CounterDeltas }
  /** `records[index]` becomes `record`; `deltas` may be empty (a repeated report changes nothing). */
  | { linked: true; index: number; record: SearchRecord; deltas: CounterDeltas };

/**
 * How much an answer waits for a report: a fetch for an answer not fetched yet; a verdict for one fetched and not
 * judged, less for one judged before (a later verdict replaces it), least for one never fetched.
 */
function waiting(state: number, verdict: ReportVerdict): number {
  if (verdict === 'fetch') return state === NONE ? 2 : 0;
  return state === FETCHED ? 2 : state === NONE ? 0 : 1;
}

/**
 * Which of the client's searches a report is about: of those in the window that answered `aid`, the one whose
 * query is most like the report's trend keyword (shared words over all words of either: an agent working on
 * several needs at once names the need it reports on, and "SHA-1 checksum of a file" is nearer its own search
 * than "SHA-512 checksum of a file"), then the one whose answer waits most for this report (waiting), then the most
 * recent.
 */
function searchOf(
  records: readonly SearchRecord[],
  aid: string,
  verdict: ReportVerdict,
  keyword: string,
  now: number,
): number {
  const words = new Set(wordKeys(keyword));
  let best = -1;
  let bestScore = -1;
  records.forEach((r, i) => {
    const answer = r.aids.indexOf(aid);
    if (answer < 0 || now - r.at > SEARCH_WINDOW_MS) return;
    const own = r.words ?? [];
    const shared = own.filter((w) => words.has(w)).length;
    const union = own.length + words.size - shared;
    // Likeness first (to 4 decimals, so floating noise never outweighs it), then what the answer waits for.
    const score =
      Math.round((union === 0 ? 0 : shared / union) * 10_000) * 3 + waiting(r.states[answer] ?? NONE, verdict);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
}

/**
 * Credits a report to one of the client's recent searches (`records`: most recent first; searchOf says which).
 * A fetch counts once per search and answer; a judged report replaces that answer's earlier verdict, so
 * "fetched with 200, then ran and failed" ends as a failure.
 */
export function creditReport(
  records: readonly SearchRecord[],
  aid: string,
  verdict: ReportVerdict,
  keyword: string,
  now: number,
): Credit {
  const index = searchOf(records, aid, verdict, keyword, now);
  if (index < 0) return { linked: false, deltas: { unlinked_reports: 1 } };
  const record = records[index] as SearchRecord;
  const answer = record.aids.indexOf(aid);
  const bucket = rankBucket(answer);
  const before = record.states[answer] ?? NONE;
  const deltas: CounterDeltas = {};
  const add = (name: string, n: number) => {
    deltas[name] = (deltas[name] ?? 0) + n;
  };
  if (verdict === 'fetch') {
    if (before !== NONE) return { linked: true, index, record, deltas };
    add(`fetched:${bucket}`, 1);
    return { linked: true, index, record: { ...record, states: record.states.with(answer, FETCHED) }, deltas };
  }
  const after = verdict === 'success' ? SUCCESS : FAILURE;
  if (before === after) return { linked: true, index, record, deltas };
  if (before === SUCCESS || before === FAILURE)
    add(`judged:${bucket}:${before === SUCCESS ? 'success' : 'failure'}`, -1);
  add(`judged:${bucket}:${verdict}`, 1);
  const states = record.states.with(answer, after);
  const was = searchFlags(record.states);
  const is = searchFlags(states);
  for (const flag of Object.keys(is) as (keyof typeof is)[]) {
    if (was[flag] !== is[flag]) add(flag, is[flag] ? 1 : -1);
  }
  return { linked: true, index, record: { ...record, states }, deltas };
}

/** Drops records past the window and keeps the most recent `max` (`records`: most recent first). */
export const liveRecords = (records: readonly SearchRecord[], now: number, max: number): SearchRecord[] =>
  records.filter((r) => now - r.at <= SEARCH_WINDOW_MS).slice(0, max);

export function totalsOf(counts: Readonly<Record<string, number>>): SearchOutcomeTotals {
  const totals = emptySearchOutcomeTotals();
  const n = (name: string) => Math.max(0, counts[name] ?? 0);
  totals.searches = n('searches');
  totals.searches_judged = n('searches_judged');
  totals.first_answer_met = n('first_answer_met');
  totals.met_within_three = n('met_within_three');
  totals.unlinked_reports = n('unlinked_reports');
  for (const b of RANK_BUCKETS) {
    totals.fetched[b] = n(`fetched:${b}`);
    totals.judged[b] = { success: n(`judged:${b}:success`), failure: n(`judged:${b}:failure`) };
  }
  return totals;
}
