// Topicality: how much a query word names a topic rather than phrasing the request around it.
// IDF alone cannot tell "declared" (rare in summaries, so high IDF, yet never what a tool is about)
// from "toml" (rare too, and a topic). The catalog itself can: topic words are the ones entries use
// to name themselves (package names, tags); prose words appear in task sentences and almost never
// there. A term's topicality is the share of the entries using it that use it in name or tags,
// smoothed towards the catalog-wide share, relative to that share and floored:
//   rate(t)  = (topicDf(t) + m * R) / (df(t) + m)       R = sum(topicDf) / sum(df) over all terms
//   scale(t) = floor + (1 - floor) * min(1, rate(t) / R)
// Unknown and rarely used words stay near 1 (the prior is the average term). Both engines scale a
// concept (its coverage weight, its typed and expanded terms) by this factor: the API engine learns
// it from its build documents (frozen until the next start, like the BM25 length averages), the
// static build writes it beside each term's posting list.
// Exports: learnTopicality(analyzedDocs) -> Map<term, scale> holding only terms below 1.
import { type AnalyzedDocument, fieldCount } from './documents.ts';
import { FIELD_NAMES } from './rank.ts';

export type Topicality = ReadonlyMap<string, number>;

export const TOPICALITY = {
  /** Scale of a word no entry ever uses in its name or tags. */
  floor: 0.6,
  /** Pseudo-count of the smoothing prior (the catalog-wide share). */
  prior: 2,
};

const TOPIC_FIELDS = (['name', 'key', 'tags'] as const).map((f) => FIELD_NAMES.indexOf(f));
const PROSE_FIELDS = (['task'] as const).map((f) => FIELD_NAMES.indexOf(f));

export function learnTopicality(docs: readonly AnalyzedDocument[]): Map<string, number> {
  const df = new Map<string, number>();
  const topicDf = new Map<string, number>();
  let all = 0;
  let topical = 0;
  for (const d of docs) {
    for (let k = 0; k < d.terms.length; k++) {
      const term = d.terms[k]!;
      if (term.startsWith('=') || term.includes('>')) continue;
      const packed = d.packed[k]!;
      const inTopic = TOPIC_FIELDS.some((i) => fieldCount(packed, i) > 0);
      if (!inTopic && !PROSE_FIELDS.some((i) => fieldCount(packed, i) > 0)) continue;
      df.set(term, (df.get(term) ?? 0) + 1);
      all++;
      if (inTopic) {
        topicDf.set(term, (topicDf.get(term) ?? 0) + 1);
        topical++;
      }
    }
  }
  const out = new Map<string, number>();
  if (all === 0 || topical === 0) return out;
  const share = topical / all;
  const { floor, prior } = TOPICALITY;
  for (const [term, n] of df) {
    const rate = ((topicDf.get(term) ?? 0) + prior * share) / (n + prior);
    if (rate >= share) continue;
    // Rounded so the value written into the static shards is the value the API engine uses.
    out.set(term, Math.round((floor + (1 - floor) * (rate / share)) * 1000) / 1000);
  }
  return out;
}
