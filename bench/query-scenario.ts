/**
 * Child-process side of `npm run bench` for an index on disk: cold open to first search (this
 * process opens the data directory fresh), hybrid query latency and each channel's share over
 * generated queries, then the exact brute-force reference over the same vectors: its latency and
 * the vector channel's recall@10 against it. Peak RSS is read BEFORE the reference loads its
 * vectors, so it is Cairn's alone.
 */
import { openDatabase } from '../src-main/core/db/database';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { hasAnnIndex } from '../src-main/core/index/ann-index';
import { readSpaces } from '../src-main/core/index/embedding-spaces';
import {
  CHANNEL_DEPTH,
  configureVectorSession,
  keywordSearch,
  vectorChannel,
} from '../src-main/core/search/index-channels';
import { prepareQuery } from '../src-main/core/search/query-text';
import { reciprocalRankFusion } from '../src-main/core/search/rrf';
import { vectorTuning } from '../src-main/core/search/search-tuning';
import { generateQueries } from './corpus';
import { ExactVectorIndex, recallAgainstExact } from './exact-search';
import { mean, summarizeLatencies, type LatencySummary } from './metrics';
import { hybridSearchFor } from './pipeline';
import { peakRssMb } from './process-stats';
import { readVectorFile } from './vector-file';
import { estimateVectors } from '../src-main/core/search/space-size';

export interface QueryScenarioResult {
  coldOpen: { openMs: number; firstSearchMs: number; totalMs: number; processUptimeMs: number };
  queries: number;
  annIndex: boolean;
  hybrid: LatencySummary;
  queryEmbed: LatencySummary;
  vector: LatencySummary;
  keyword: LatencySummary;
  fusion: LatencySummary;
  exact: LatencySummary & { vectors: number };
  /** median vector channel latency / median exact brute-force latency */
  vectorToExactRatio: number;
  recallAt10: number;
  recallAt10Min: number;
  peakRssMb: number;
}

const WARMUP_QUERIES = 10;

export async function runQueryScenario(options: {
  dataDir: string;
  embedder: Embedder;
  queries: number;
  vectorFile: string;
  seed: number;
}): Promise<QueryScenarioResult> {
  const queries = generateQueries(options.queries, options.seed);
  const openStarted = performance.now();
  const db = await openDatabase({ dataDir: options.dataDir });
  const openMs = performance.now() - openStarted;
  const search = hybridSearchFor(db, options.embedder);
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
  if (!active) throw new Error('The index has no active embedding space.');
  await configureVectorSession(db);
  // As HybridSearch sizes them: from the space's estimated size (space-size.ts).
  const lexicalCandidates = vectorTuning(active).lexicalCandidates(await estimateVectors(db, active));
  for (const query of generateQueries(WARMUP_QUERIES, options.seed + 1)) await search.search({ query });

  const times = {
    hybrid: [] as number[],
    queryEmbed: [] as number[],
    vector: [] as number[],
    keyword: [] as number[],
    fusion: [] as number[],
  };
  const queryVectors: Float32Array[] = [];
  const vectorResults: number[][] = [];
  for (const query of queries) {
    let started = performance.now();
    await search.search({ query, k: 10 });
    times.hybrid.push(performance.now() - started);

    const prepared = prepareQuery(query)!;
    started = performance.now();
    const vector = (await options.embedder.embed([prepared.text], { kind: 'query' })).vectors[0]!;
    times.queryEmbed.push(performance.now() - started);
    // The channels as HybridSearch runs them: the keyword scan also yields the vector channel's
    // lexical candidates; the vector channel without the similarity floor.
    started = performance.now();
    const keyword = await keywordSearch(db, prepared.keywordText, null, lexicalCandidates);
    const keywordIds = keyword.ids;
    times.keyword.push(performance.now() - started);
    started = performance.now();
    const vectorIds = await vectorChannel(db, active, vector, null, { candidates: keyword.candidates });
    times.vector.push(performance.now() - started);
    started = performance.now();
    reciprocalRankFusion({
      vector: vectorIds.map((id) => `chunk:${id}`),
      keyword: keywordIds.map((id) => `chunk:${id}`),
    }).slice(0, 10);
    times.fusion.push(performance.now() - started);
    queryVectors.push(vector);
    vectorResults.push(vectorIds);
  }
  const annIndex = await hasAnnIndex(db, active);
  const cairnPeakRss = peakRssMb();
  log(`${queries.length} queries done (HNSW index: ${annIndex ? 'yes' : 'no, exact scan'})`);

  const exact = await loadExactIndex(db, options.vectorFile, active.dimensions);
  await db.close();
  const exactTimes: number[] = [];
  const recalls: number[] = [];
  queryVectors.forEach((vector, q) => {
    const started = performance.now();
    const top = exact.topK(vector, CHANNEL_DEPTH);
    exactTimes.push(performance.now() - started);
    recalls.push(recallAgainstExact(vectorResults[q]!, top, 10, (id) => exact.scoreOf(id, vector)));
  });
  const summaries = {
    hybrid: summarizeLatencies(times.hybrid),
    queryEmbed: summarizeLatencies(times.queryEmbed),
    vector: summarizeLatencies(times.vector),
    keyword: summarizeLatencies(times.keyword),
    fusion: summarizeLatencies(times.fusion),
    exact: { ...summarizeLatencies(exactTimes), vectors: exact.size },
  };
  return {
    coldOpen,
    queries: queries.length,
    annIndex,
    ...summaries,
    vectorToExactRatio: summaries.vector.p50 / summaries.exact.p50,
    recallAt10: mean(recalls),
    recallAt10Min: Math.min(...recalls),
    peakRssMb: cairnPeakRss,
  };
}

/** The exact reference over the vectors the sync wrote, keyed by the chunk ids the index gave them. */
export async function loadExactIndex(
  db: Awaited<ReturnType<typeof openDatabase>>,
  vectorFile: string,
  dimensions: number,
): Promise<ExactVectorIndex> {
  const byDocumentOrd = readVectorFile(vectorFile, dimensions);
  const rows = (
    await db.query<{ id: string | number; document_id: string | number; ord: number }>(
      'SELECT id, document_id, ord FROM chunks ORDER BY id',
    )
  ).rows;
  const ids = new Int32Array(rows.length);
  const matrix = new Float32Array(rows.length * dimensions);
  rows.forEach((row, i) => {
    const vector = byDocumentOrd.get(`${row.document_id}:${row.ord}`);
    if (!vector) throw new Error(`No captured vector for chunk ${row.id}.`);
    ids[i] = Number(row.id);
    matrix.set(vector, i * dimensions);
  });
  return new ExactVectorIndex(ids, matrix, dimensions);
}

function log(message: string): void {
  process.stderr.write(`  [query] ${message}\n`);
}
