/**
 * The vector channel's statement: top chunk ids by cosine distance in one embedding space, ranked
 * exactly. It runs inside the search's one index statement (index-retrieval.ts); bench/ studies
 * run it alone. Candidates are the HNSW walk's top hits (or an exact scan, whichever the planner
 * picks), and every candidate is scored with its stored vector (docs/decisions/vector-index.md).
 */
import type { Db } from '../db/database';
import { spaceTable, vectorCast, type SpaceRecord } from '../index/embedding-spaces';
import { toVectorLiteral } from '../index/vector-literal';
import { CHANNEL_DEPTH, DEEPEST_CHANNEL_DEPTH, scopeIsEmpty, type ChannelScope } from './channel-scope';

/**
 * Up to this many documents in scope, the vector channel scores every chunk of them exactly
 * instead of walking HNSW: a filtered HNSW walk gives up after hnsw.max_scan_tuples (20,000) rows,
 * so a small knowledge base far from the query could come back empty. Scoring a few thousand
 * chunks' vectors costs milliseconds.
 */
export const EXACT_SCOPE_DOCUMENTS = 2_000;

/**
 * Session settings for the vector channel. relaxed_order lets HNSW keep scanning when a
 * connection filter removes rows, instead of returning fewer than LIMIT
 * (https://github.com/pgvector/pgvector#iterative-index-scans). ef_search 200: at 10k chunks the
 * lexical candidates beside the HNSW walk hide its size (recall@10 0.97 at ef 40, 0.98 at 100), but
 * at 100k they are 300 of 100,000 and ef 40 dropped recall@10 to 0.657 where ef 200 had measured
 * 0.817 with HNSW alone; semantic spaces have only the walk. ef 200 cost 1.6 ms p50 at 10k against
 * 1.9 ms at 40 (bench/ann-sweep.ts, noise), see docs/decisions/vector-index.md. PGlite is one
 * session, so setting them once holds.
 *
 * ef_search is also as many rows as one walk returns before the iterative scan resumes (pgvector
 * 0.8.7 with iterative_scan off: ef 40, LIMIT 100 returns 40 rows). It is not below the deepest
 * channel (DEEPEST_CHANNEL_DEPTH, 200 chunks for "Show more" to 50), so the deeper pass's walk
 * returns its whole depth without a setting of its own, and the first page keeps ef 200 (its LIMIT
 * 30 pays nothing more). Should the deepest depth ever exceed it, raise ef_search around the deeper
 * pass only: vector-session.test.ts checks the walk returns that depth with the iterative scan off.
 */
export const HNSW_EF_SEARCH = 200;
export const HNSW_ITERATIVE_SCAN = 'relaxed_order';

export async function configureVectorSession(db: Db): Promise<void> {
  await db.exec(`SET hnsw.iterative_scan = ${HNSW_ITERATIVE_SCAN}; SET hnsw.ef_search = ${HNSW_EF_SEARCH}`);
}

export interface VectorChannelOptions {
  /**
   * Chunks ranked: deeper than CHANNEL_DEPTH only for a page past the first (index-retrieval.ts),
   * at most DEEPEST_CHANNEL_DEPTH (see HNSW_EF_SEARCH). @default CHANNEL_DEPTH
   */
  depth?: number;
  /** Hits less similar than this are dropped. @default -1 (none) */
  minSimilarity?: number;
  /** More chunk ids to score exactly beside the HNSW candidates (studies). */
  candidates?: readonly number[];
  /**
   * How many of the HNSW walk's hits are re-scored exactly (a diagnostic may ask for more).
   * @default the depth: as many as are ranked
   */
  hnswCandidates?: number;
}

/**
 * The vector channel's SQL: it selects `chunk_id` and its 1-based `rank`, best first (at most
 * `depth`, CHANNEL_DEPTH unless asked), appends its parameters to `params` and numbers them from
 * there. Null when the scope is empty. Hits less similar than `minSimilarity` are dropped: a
 * nearest neighbour that shares nothing with the query is noise, not a result.
 */
export function vectorChannelSql(
  space: SpaceRecord,
  queryVector: Float32Array,
  scope: ChannelScope | null,
  options: VectorChannelOptions,
  params: unknown[],
): string | null {
  if (scopeIsEmpty(scope)) return null;
  const table = spaceTable(space);
  const cast = vectorCast(space);
  const maxDistance = Math.min(2, Math.max(0, 1 - (options.minSimilarity ?? -1)));
  const depth = Math.trunc(
    Math.min(DEEPEST_CHANNEL_DEPTH, Math.max(CHANNEL_DEPTH, options.depth ?? CHANNEL_DEPTH)),
  );
  const ranked = `SELECT chunk_id, row_number() OVER (ORDER BY distance, chunk_id) AS rank FROM scored
     WHERE distance <= ${maxDistance} ORDER BY distance, chunk_id LIMIT ${depth}`;
  const param = (value: unknown) => `$${params.push(value)}`;
  const query = param(toVectorLiteral(queryVector));
  const documentIds = scope?.documentIds;
  if (documentIds && documentIds.length <= EXACT_SCOPE_DOCUMENTS) {
    // A small scope: every chunk of it scored exactly (see EXACT_SCOPE_DOCUMENTS); the document
    // list already lies within the connections asked for (search-filters.ts documentsPassing).
    return `WITH scored AS MATERIALIZED (
         SELECT e.chunk_id, e.embedding <=> ${query}::${cast} AS distance
         FROM chunks c JOIN ${table} e ON e.chunk_id = c.id
         WHERE c.document_id = ANY(${param(documentIds)}::bigint[]))
       ${ranked}`;
  }
  const candidates = param(options.candidates ?? []);
  const conditions: string[] = [];
  if (scope?.connectionIds) conditions.push(`connection_id = ANY(${param(scope.connectionIds)}::text[])`);
  if (documentIds)
    conditions.push(
      `chunk_id IN (SELECT id FROM chunks WHERE document_id = ANY(${param(documentIds)}::bigint[]))`,
    );
  const filter = conditions.length > 0 ? conditions.join(' AND ') : null;
  // The candidates' vectors by primary key, as one array lookup: a join would let the planner
  // scan every vector, a lookup per candidate pays the executor's setup 300 times.
  // MATERIALIZED + outer ORDER BY: relaxed_order may return the HNSW hits slightly out of order.
  return `WITH scored AS MATERIALIZED (
       SELECT e.chunk_id, e.embedding <=> ${query}::${cast} AS distance FROM ${table} e
       WHERE e.chunk_id = ANY (${candidates}::bigint[] || ARRAY(
               SELECT chunk_id FROM ${table} ${filter ? `WHERE ${filter}` : ''}
               ORDER BY embedding <=> ${query}::${cast} LIMIT ${Math.trunc(options.hnswCandidates ?? depth)}))
         ${filter ? `AND ${conditions.map((c) => `e.${c}`).join(' AND ')}` : ''})
     ${ranked}`;
}
