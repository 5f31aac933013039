// Public surface of the search engine shared by the API server and the static site.
//
// API server (in-process, incremental):
//   const { engine } = createSearchIndex(contracts.map(documentFromContract));
//   engine.search('hash passwords', { limit: 10, platform: 'pypi' })  -> [{id, score}]
//   engine.upsert(documentFromContract(c)); engine.remove(aid)        -> visible to the next search
//   A second instance indexes web-API manifests: documentFromApiManifest(m), search(q, {kind: 'api'}).
//   To skip learning expansions at start-up, pass the table the static build wrote:
//   createSearchIndex(docs, { expansions: readExpansions('dist/search/expansions.json') }).
//   (The API server imports engine.ts and expand.ts directly: this file also loads lunr and the
//   static writer.)
//
// Static site (CDN, lunr shards; see static-index.ts for the file layout):
//   writeStaticSearch(docs, 'dist/search')              manifest, term shards, doc shards, expansions
//   await bundleSearchClient('dist/search/search.js')   (import from './bundle.ts'; needs esbuild)
//   copy site/search/index.html to dist/search/index.html
// Both paths rank with rank.ts + plan.ts: the same query gives the same order and scores.
export { StaticSearch, type FetchJson, type StaticHit } from './client.ts';
export {
  analyzeDocument,
  type ApiManifestLike,
  documentFromApiManifest,
  documentFromContract,
  type SearchDocument,
} from './documents.ts';
export { createSearchIndex, type EngineOptions, SearchEngine, type SearchOptions } from './engine.ts';
export { learnExpansions, readExpansions } from './expand.ts';
export type { Expansions } from './plan.ts';
export { type Hit, RANK } from './rank.ts';
export { type StaticManifest, writeStaticSearch } from './static-index.ts';
