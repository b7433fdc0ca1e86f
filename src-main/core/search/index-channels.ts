/**
 * The two local channels: SQL that returns ranked chunk ids, nothing else. Both take an optional
 * list of connection ids to search (null = every chunk in the index).
 */
import type { Db } from '../db/database';
import { spaceTable, vectorCast, type SpaceRecord } from '../index/embedding-spaces';
import { BM25_INDEX } from '../index/keyword-index';
import { toVectorLiteral } from '../index/vector-literal';

/** Candidates per channel before fusion. */
export const CHANNEL_DEPTH = 30;

/**
 * Session settings for the vector channel. relaxed_order lets HNSW keep scanning when a
 * connection filter removes rows, instead of returning fewer than LIMIT
 * (https://github.com/pgvector/pgvector#iterative-index-scans). ef_search 200: on the bench's
 * hard synthetic corpus recall@10 rose from 0.80 (ef 80) to 0.86 for +0.2 ms at 10k
 * (bench/ann-sweep.ts, docs/decisions/vector-index.md). PGlite is one session, so setting them once holds.
 */
export async function configureVectorSession(db: Db): Promise<void> {
  await db.exec('SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 200');
}

/**
 * Top chunk ids by cosine distance in one embedding space. Exact scan or HNSW: the planner picks.
 * Hits less similar than `minSimilarity` are dropped: a nearest neighbour that shares nothing
 * with the query is noise, not a result.
 */
export async function vectorChannel(
  db: Db,
  space: SpaceRecord,
  queryVector: Float32Array,
  connectionIds: string[] | null,
  minSimilarity = -1,
): Promise<number[]> {
  const filter = connectionIds ? 'WHERE connection_id = ANY($2::text[])' : '';
  const maxDistance = Math.min(2, Math.max(0, 1 - minSimilarity));
  // MATERIALIZED + outer ORDER BY: relaxed_order may return slightly out of order.
  const rows = await db.query<{ chunk_id: string | number }>(
    `WITH nearest AS MATERIALIZED (
       SELECT chunk_id, embedding <=> $1::${vectorCast(space)} AS distance FROM ${spaceTable(space)} ${filter}
       ORDER BY distance LIMIT ${CHANNEL_DEPTH})
     SELECT chunk_id FROM nearest WHERE distance <= ${maxDistance} ORDER BY distance, chunk_id`,
    connectionIds ? [toVectorLiteral(queryVector), connectionIds] : [toVectorLiteral(queryVector)],
  );
  return rows.rows.map((r) => Number(r.chunk_id));
}

/**
 * Top chunk ids by BM25 (pg_textsearch) over the analysed `search_text`. Scores are negative
 * (lower is better) and 0 means "no term matched", so zero-score rows are dropped.
 */
export async function keywordChannel(
  db: Db,
  keywordText: string,
  connectionIds: string[] | null,
): Promise<number[]> {
  if (!keywordText) return [];
  const filter = connectionIds ? 'WHERE connection_id = ANY($2::text[])' : '';
  const rows = await db.query<{ id: string | number }>(
    `SELECT id FROM (
       SELECT id, search_text <@> to_bm25query($1, '${BM25_INDEX}') AS score FROM chunks ${filter}
       ORDER BY score LIMIT ${CHANNEL_DEPTH}) ranked
     WHERE score < 0 ORDER BY score, id`,
    connectionIds ? [keywordText, connectionIds] : [keywordText],
  );
  return rows.rows.map((r) => Number(r.id));
}
