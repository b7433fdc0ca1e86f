/**
 * Retrieval quality of the real pipeline on one collection: every record becomes a Markdown
 * document "# title\n\ntext" served by an in-memory connector, indexed by the SyncEngine
 * (chunker → built-in embedder → PgDocumentStore, in-memory PGlite), then every judged query runs
 * through the keyword channel alone, the vector channel alone, and both fused by the app's RRF.
 * A document counts at its best-ranked chunk.
 *
 * Hybrid is fused here from the two channel rankings already fetched (the same
 * reciprocalRankFusion HybridSearch calls), which halves the run time; every
 * HYBRID_CHECK_EVERY-th query also runs through HybridSearch itself and must give the same
 * chunks in the same order, so the shortcut cannot drift from the app.
 */
import type { Embedder } from '../src-main/core/embedding/embedder';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { readSpaces } from '../src-main/core/index/embedding-spaces';
import { configureVectorSession, keywordChannel, vectorChannel } from '../src-main/core/search/index-channels';
import { prepareQuery } from '../src-main/core/search/query-text';
import { reciprocalRankFusion } from '../src-main/core/search/rrf';
import type { Collection } from './collection';
import { MemoryConnector } from './memory-connector';
import { mean, ndcgAt, recallAt, reciprocalRankAt, type Judgments } from './metrics';
import { CONNECTION_ID, hybridSearchFor, openPipeline } from './pipeline';
import { PrecomputedQueryEmbedder } from './precomputed-query-embedder';

export type Method = 'keyword' | 'vector' | 'hybrid';
export const METHODS: readonly Method[] = ['keyword', 'vector', 'hybrid'];

export interface MethodScores {
  ndcgAt10: number;
  recallAt10: number;
  recallAt30: number;
  mrrAt10: number;
}

export interface CollectionResult {
  collection: string;
  split: 'test' | 'train';
  documents: number;
  chunks: number;
  queries: number;
  indexSeconds: number;
  querySeconds: number;
  /** Queries also run through HybridSearch, and how many of them ranked differently (must be 0). */
  hybridChecked: number;
  hybridMismatches: number;
  scores: Record<Method, MethodScores>;
}

/** Fused chunks kept (HybridSearch's largest k); enough for 30 distinct documents here. */
const HYBRID_DEPTH = 50;
const HYBRID_CHECK_EVERY = 10;
const QUERY_EMBED_BATCH = 256;

export function documentMarkdown(title: string, text: string): string {
  return title.trim() ? `# ${title.trim()}\n\n${text}` : text;
}

export function scoreRanking(ranked: readonly string[], judgments: Judgments): MethodScores {
  return { ndcgAt10: ndcgAt(ranked, judgments, 10), recallAt10: recallAt(ranked, judgments, 10), recallAt30: recallAt(ranked, judgments, 30), mrrAt10: reciprocalRankAt(ranked, judgments, 10) };
}

function averageScores(all: MethodScores[]): MethodScores {
  return { ndcgAt10: mean(all.map((s) => s.ndcgAt10)), recallAt10: mean(all.map((s) => s.recallAt10)), recallAt30: mean(all.map((s) => s.recallAt30)), mrrAt10: mean(all.map((s) => s.mrrAt10)) };
}

export async function evaluateCollection(collection: Collection, options: { embedder?: Embedder; log?: (line: string) => void } = {}): Promise<CollectionResult> {
  const log = options.log ?? (() => {});
  const embedder = options.embedder ?? new BuiltinEmbedder();
  const pipeline = await openPipeline({ embedder });
  try {
    const connector = new MemoryConnector();
    for (const record of collection.corpus) connector.put({ externalId: record.id, title: record.title || record.id, knowledgeBase: collection.name, markdown: documentMarkdown(record.title, record.text) });
    const indexStarted = performance.now();
    const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector, embedder });
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    if (run.status !== 'succeeded') throw new Error(`Indexing ${collection.name} ${run.status}: ${JSON.stringify(run.error ?? run.errors.slice(0, 3))}`);
    const counts = await pipeline.store.counts(CONNECTION_ID);
    log(`${collection.name}: indexed ${counts.documents} documents, ${counts.chunks} chunks in ${indexSeconds.toFixed(1)} s`);

    const queryStarted = performance.now();
    const { active } = await readSpaces(pipeline.db);
    if (!active) throw new Error('No active embedding space after indexing.');
    const documentOf = new Map(
      (await pipeline.db.query<{ id: string | number; external_id: string }>('SELECT c.id, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id')).rows.map((r) => [Number(r.id), r.external_id]),
    );
    const toDocuments = (chunkIds: number[]) => chunkIds.map((id) => documentOf.get(id) ?? `?${id}`);
    const prepared = collection.queries.map((q) => prepareQuery(q.text));
    // Query vectors in batches (3,219 one-by-one calls would dominate), then served to HybridSearch from memory.
    const queryEmbedder = new PrecomputedQueryEmbedder(embedder);
    const texts = prepared.flatMap((p) => (p ? [p.text] : []));
    for (let start = 0; start < texts.length; start += QUERY_EMBED_BATCH) await queryEmbedder.precompute(texts.slice(start, start + QUERY_EMBED_BATCH));
    const search = hybridSearchFor(pipeline.db, queryEmbedder);
    await configureVectorSession(pipeline.db);

    const perMethod: Record<Method, MethodScores[]> = { keyword: [], vector: [], hybrid: [] };
    let hybridChecked = 0;
    let hybridMismatches = 0;
    for (const [i, query] of collection.queries.entries()) {
      const judgments = collection.qrels.get(query.id)!;
      const p = prepared[i];
      const keywordIds = p ? await keywordChannel(pipeline.db, p.keywordText, null) : [];
      const vectorIds = p ? await vectorChannel(pipeline.db, active, queryEmbedder.vectorOf(p.text)!, null) : [];
      const fused = reciprocalRankFusion({ vector: vectorIds.map((id) => `chunk:${id}`), keyword: keywordIds.map((id) => `chunk:${id}`) })
        .slice(0, HYBRID_DEPTH)
        .map((item) => item.key);
      if (i % HYBRID_CHECK_EVERY === 0) {
        const app = (await search.search({ query: query.text, k: HYBRID_DEPTH })).hits.map((h) => h.key);
        hybridChecked++;
        if (app.join() !== fused.join()) hybridMismatches++;
      }
      perMethod.keyword.push(scoreRanking(toDocuments(keywordIds), judgments));
      perMethod.vector.push(scoreRanking(toDocuments(vectorIds), judgments));
      perMethod.hybrid.push(scoreRanking(toDocuments(fused.map((key) => Number(key.slice('chunk:'.length)))), judgments));
      if ((i + 1) % 500 === 0) log(`${collection.name}: ${i + 1}/${collection.queries.length} queries`);
    }
    const querySeconds = (performance.now() - queryStarted) / 1000;
    log(`${collection.name}: ${collection.queries.length} queries × 3 methods in ${querySeconds.toFixed(1)} s; ${hybridChecked} checked against HybridSearch, ${hybridMismatches} differed`);
    return {
      collection: collection.name,
      split: collection.split,
      documents: counts.documents,
      chunks: counts.chunks,
      queries: collection.queries.length,
      indexSeconds,
      querySeconds,
      hybridChecked,
      hybridMismatches,
      scores: { keyword: averageScores(perMethod.keyword), vector: averageScores(perMethod.vector), hybrid: averageScores(perMethod.hybrid) },
    };
  } finally {
    await pipeline.db.close();
  }
}
