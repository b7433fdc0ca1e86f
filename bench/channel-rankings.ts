/**
 * The keyword and the vector channel's own rankings for many queries, read from the statement
 * HybridSearch runs (index-retrieval.ts; without the similarity floor, so each channel is scored
 * whole); query vectors are embedded in batches first. Shared by the collection and the real-documents evaluations, so both score the same
 * channels.
 */
import type { Db } from '../src-main/core/db/database';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { readSpaces, type SpaceRecord } from '../src-main/core/index/embedding-spaces';
import { retrieveFromIndex } from '../src-main/core/search/index-retrieval';
import { prepareQuery } from '../src-main/core/search/query-text';
import { configureVectorSession } from '../src-main/core/search/vector-channel';
import { PrecomputedQueryEmbedder } from './precomputed-query-embedder';

const QUERY_EMBED_BATCH = 256;

/** Chunk ids, best first. */
export interface ChannelRankings {
  keyword: number[];
  vector: number[];
}

export interface ChannelRanker {
  active: SpaceRecord;
  /** Answers the queries already ranked from their batch-embedded vectors (for HybridSearch). */
  queryEmbedder: PrecomputedQueryEmbedder;
  /** Document external ids of chunk ids, in order (a document repeats at each of its chunks). */
  documentsOf(chunkIds: readonly number[]): string[];
  rank(queries: readonly { text: string }[], progress?: (done: number) => void): Promise<ChannelRankings[]>;
}

export async function channelRanker(db: Db, embedder: Embedder): Promise<ChannelRanker> {
  const { active } = await readSpaces(db);
  if (!active) throw new Error('No active embedding space after indexing.');
  const documentOf = new Map(
    (
      await db.query<{ id: string | number; external_id: string }>(
        'SELECT c.id, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id',
      )
    ).rows.map((r) => [Number(r.id), r.external_id]),
  );
  const queryEmbedder = new PrecomputedQueryEmbedder(embedder);
  await configureVectorSession(db);
  return {
    active,
    queryEmbedder,
    documentsOf: (chunkIds) => chunkIds.map((id) => documentOf.get(id) ?? `?${id}`),
    async rank(queries, progress) {
      const prepared = queries.map((q) => prepareQuery(q.text));
      const texts = prepared.flatMap((p) => (p ? [p.text] : []));
      for (let start = 0; start < texts.length; start += QUERY_EMBED_BATCH)
        await queryEmbedder.precompute(texts.slice(start, start + QUERY_EMBED_BATCH));
      const rankings: ChannelRankings[] = [];
      for (const [i, p] of prepared.entries()) {
        const found = p
          ? await retrieveFromIndex(db, {
              query: p,
              scope: null,
              vector: { space: active, queryVector: queryEmbedder.vectorOf(p.text)! },
            })
          : null;
        rankings.push({ keyword: found?.keyword ?? [], vector: found?.vector ?? [] });
        if ((i + 1) % 1000 === 0) progress?.(i + 1);
      }
      return rankings;
    },
  };
}
