/**
 * Child-process side of `npm run bench` for an index on disk: cold open to first search (this
 * process opens the data directory fresh), then the app's search end to end (HybridSearch, as
 * the app builds it: bench/pipeline.ts) over generated queries, with where each search's time goes
 * on that same path (the query embedding, the BM25 scans, the index statement, the other
 * statements, the rest in JS: bench/statement-trace.ts). With a semantic model, then the exact
 * brute-force reference over the stored vectors: its latency, and the recall@10 of the vector
 * ranking the index statement returns (index-retrieval.ts, without the similarity floor) against
 * it. Peak RSS is read BEFORE the reference loads its vectors, so it is Cairn's alone.
 */
import { openDatabase } from '../src-main/core/db/database';
import type { EmbedResult, Embedder } from '../src-main/core/embedding/embedder';
import { hasAnnIndex } from '../src-main/core/index/ann-index';
import { readSpaces } from '../src-main/core/index/embedding-spaces';
import { CHANNEL_DEPTH } from '../src-main/core/search/channel-scope';
import { retrieveFromIndex } from '../src-main/core/search/index-retrieval';
import { prepareQuery } from '../src-main/core/search/query-text';
import { generateQueries } from './corpus';
import { recallAgainstExact } from './exact-search';
import { mean, summarizeLatencies, type LatencySummary } from './metrics';
import { hybridSearchFor } from './pipeline';
import { peakRssMb } from './process-stats';
import { StatementTrace } from './statement-trace';
import { loadStoredVectors } from './stored-vectors';

export interface QueryScenarioResult {
  coldOpen: { openMs: number; firstSearchMs: number; totalMs: number; processUptimeMs: number };
  queries: number;
  annIndex: boolean;
  /** HybridSearch.search, end to end. */
  hybrid: LatencySummary;
  /** Parts of the same searches (per search; the embedding may overlap the first BM25 scan). */
  queryEmbed: LatencySummary;
  keywordScans: LatencySummary;
  indexStatement: LatencySummary;
  /** The catalogue, document filters, first chunks: what the other statements cost. */
  otherStatements: LatencySummary;
  /** The rest of the search: query analysis, fusion, reranks, hit building. */
  rest: LatencySummary;
  /** Mean statements per search. */
  statementsPerSearch: number;
  /** With a semantic model only: the exact scan in JavaScript and the vector ranking's recall against it. */
  exact: (LatencySummary & { vectors: number }) | null;
  recallAt10: number | null;
  recallAt10Min: number | null;
  peakRssMb: number;
}

const WARMUP_QUERIES = 10;

/** Times the embedder's calls (the query embedding inside a search). */
class TimedEmbedder implements Embedder {
  elapsedMs = 0;
  constructor(private readonly inner: Embedder) {}
  get space() {
    return this.inner.space;
  }
  async embed(texts: string[], options?: Parameters<Embedder['embed']>[1]): Promise<EmbedResult> {
    const started = performance.now();
    try {
      return await this.inner.embed(texts, options);
    } finally {
      this.elapsedMs += performance.now() - started;
    }
  }
}

export async function runQueryScenario(options: {
  dataDir: string;
  /** The semantic model; null: keyword search only. */
  embedder: Embedder | null;
  queries: number;
  seed: number;
}): Promise<QueryScenarioResult> {
  const queries = generateQueries(options.queries, options.seed);
  const openStarted = performance.now();
  const db = await openDatabase({ dataDir: options.dataDir });
  const openMs = performance.now() - openStarted;
  const embedder = options.embedder ? new TimedEmbedder(options.embedder) : null;
  const search = hybridSearchFor(db, embedder);
  const firstStarted = performance.now();
  await search.search({ query: queries[0]! });
  const firstSearchMs = performance.now() - firstStarted;
  const coldOpen = {
    openMs,
    firstSearchMs,
    totalMs: openMs + firstSearchMs,
    processUptimeMs: process.uptime() * 1000,
  };
  log(`cold open ${openMs.toFixed(0)} ms + first search ${firstSearchMs.toFixed(0)} ms`);

  const { active } = await readSpaces(db);
  if (options.embedder && !active) throw new Error('The index has no active embedding space.');
  for (const query of generateQueries(WARMUP_QUERIES, options.seed + 1)) await search.search({ query });

  const trace = new StatementTrace(db);
  const times = {
    hybrid: [] as number[],
    queryEmbed: [] as number[],
    keywordScans: [] as number[],
    indexStatement: [] as number[],
    otherStatements: [] as number[],
    rest: [] as number[],
  };
  const statementCounts: number[] = [];
  for (const query of queries) {
    if (embedder) embedder.elapsedMs = 0;
    const started = performance.now();
    const { statements } = await trace.measure(() => search.search({ query, k: 10 }));
    const total = performance.now() - started;
    const { ms, count } = statements;
    const other = ms.other;
    const embedMs = embedder?.elapsedMs ?? 0;
    times.hybrid.push(total);
    times.queryEmbed.push(embedMs);
    times.keywordScans.push(ms['keyword scan']);
    times.indexStatement.push(ms['index statement']);
    times.otherStatements.push(other);
    times.rest.push(Math.max(0, total - embedMs - ms['keyword scan'] - ms['index statement'] - other));
    statementCounts.push(Object.values(count).reduce((a, b) => a + b, 0));
  }
  trace.restore();

  const common = {
    coldOpen,
    queries: queries.length,
    hybrid: summarizeLatencies(times.hybrid),
    queryEmbed: summarizeLatencies(times.queryEmbed),
    keywordScans: summarizeLatencies(times.keywordScans),
    indexStatement: summarizeLatencies(times.indexStatement),
    otherStatements: summarizeLatencies(times.otherStatements),
    rest: summarizeLatencies(times.rest),
    statementsPerSearch: mean(statementCounts),
  };
  if (!options.embedder || !active) {
    const cairnPeakRss = peakRssMb();
    await db.close();
    log(`${queries.length} queries done (keyword search only)`);
    return {
      ...common,
      annIndex: false,
      exact: null,
      recallAt10: null,
      recallAt10Min: null,
      peakRssMb: cairnPeakRss,
    };
  }
  // The vector ranking of the same statement, without the similarity floor, for its recall.
  const queryVectors: Float32Array[] = [];
  const vectorResults: number[][] = [];
  for (const query of queries) {
    const prepared = prepareQuery(query)!;
    const vector = (await options.embedder.embed([prepared.text], { kind: 'query' })).vectors[0]!;
    const found = await retrieveFromIndex(db, {
      query: prepared,
      scope: null,
      vector: { space: active, queryVector: vector },
    });
    queryVectors.push(vector);
    vectorResults.push(found.vector);
  }
  const annIndex = await hasAnnIndex(db, active);
  const cairnPeakRss = peakRssMb();
  log(`${queries.length} queries done (HNSW index: ${annIndex ? 'yes' : 'no, exact scan'})`);

  const exact = await loadStoredVectors(db, active);
  await db.close();
  const exactTimes: number[] = [];
  const recalls: number[] = [];
  queryVectors.forEach((vector, q) => {
    const started = performance.now();
    const top = exact.topK(vector, CHANNEL_DEPTH);
    exactTimes.push(performance.now() - started);
    recalls.push(recallAgainstExact(vectorResults[q]!, top, 10, (id) => exact.scoreOf(id, vector)));
  });
  return {
    ...common,
    annIndex,
    exact: { ...summarizeLatencies(exactTimes), vectors: exact.size },
    recallAt10: mean(recalls),
    recallAt10Min: Math.min(...recalls),
    peakRssMb: cairnPeakRss,
  };
}

function log(message: string): void {
  process.stderr.write(`  [query] ${message}\n`);
}
