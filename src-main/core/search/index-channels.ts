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
 * (https://github.com/pgvector/pgvector#iterative-index-scans). ef_search 100: the HNSW walk is
 * one of two candidate sources (see vectorChannel); with lexical candidates beside it, recall@10
 * against an exact scan is 0.98 at ef 100 and 0.97 at 40 on the bench's 10k chunks
 * (docs/decisions/vector-index.md). PGlite is one session, so setting them once holds.
 */
export async function configureVectorSession(db: Db): Promise<void> {
  await db.exec('SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100');
}

export interface VectorChannelOptions {
  /** Hits less similar than this are dropped. @default -1 (none) */
  minSimilarity?: number;
  /** The query's analysed keyword text: its BM25 top `lexicalCandidates` join the candidates. */
  keywordText?: string;
  /** @default 0 (HNSW candidates only) */
  lexicalCandidates?: number;
}

/**
 * Top chunk ids by cosine distance in one embedding space, ranked exactly: candidates are the
 * HNSW walk's top 30 (or an exact scan, whichever the planner picks) plus, when asked, the BM25
 * top `lexicalCandidates` of the query's keywords, and every candidate is scored with its stored
 * vector. HNSW alone misses true neighbours where the space has near-orthogonal clusters (the
 * lexical built-in embedder: a greedy walk that starts in another topic finds no way over); the
 * chunks sharing the query's words are where a lexical embedder's neighbours are, and re-scoring
 * them exactly costs a few ms (docs/decisions/vector-index.md).
 * Hits less similar than `minSimilarity` are dropped: a nearest neighbour that shares nothing
 * with the query is noise, not a result.
 */
export async function vectorChannel(
  db: Db,
  space: SpaceRecord,
  queryVector: Float32Array,
  connectionIds: string[] | null,
  options: VectorChannelOptions = {},
): Promise<number[]> {
  const table = spaceTable(space);
  const cast = vectorCast(space);
  const maxDistance = Math.min(2, Math.max(0, 1 - (options.minSimilarity ?? -1)));
  const lexical = options.keywordText ? Math.max(0, Math.floor(options.lexicalCandidates ?? 0)) : 0;
  const params: unknown[] = [toVectorLiteral(queryVector)];
  const param = (value: unknown) => `$${params.push(value)}`;
  const filter = connectionIds ? `connection_id = ANY(${param(connectionIds)}::text[])` : null;
  // The BM25 list carries no filter (a WHERE there makes Postgres score whole connections, see
  // keywordChannel); the join below filters, and a score-0 row a sorting plan adds is only a candidate.
  const lexicalCte = lexical
    ? `, lexical AS MATERIALIZED (SELECT id AS chunk_id FROM chunks
         ORDER BY search_text <@> to_bm25query(${param(options.keywordText)}, '${BM25_INDEX}') LIMIT ${lexical})`
    : '';
  const rows = await db.query<{ chunk_id: string | number }>(
    `WITH nearest AS MATERIALIZED (
       SELECT chunk_id FROM ${table} ${filter ? `WHERE ${filter}` : ''}
       ORDER BY embedding <=> $1::${cast} LIMIT ${CHANNEL_DEPTH})${lexicalCte},
     scored AS (
       SELECT e.chunk_id, e.embedding <=> $1::${cast} AS distance
       FROM (SELECT chunk_id FROM nearest${lexical ? ' UNION SELECT chunk_id FROM lexical' : ''}) c
       JOIN ${table} e USING (chunk_id) ${filter ? `WHERE e.${filter}` : ''})
     SELECT chunk_id FROM scored WHERE distance <= ${maxDistance} ORDER BY distance, chunk_id LIMIT ${CHANNEL_DEPTH}`,
    params,
  );
  return rows.rows.map((r) => Number(r.chunk_id));
}

/** Rows the keyword scan may read per connection-filtered query before it filters in SQL instead. */
const MAX_KEYWORD_OVERSAMPLE = 16;

/**
 * Top chunk ids by BM25 (pg_textsearch) over the analysed `search_text`, best first.
 *
 * The query is shaped so that pg_textsearch's Block-Max WAND index scan does the ranking and
 * nothing scores a row a second time (docs/decisions/keyword-channel.md):
 * - No score in the SELECT list: `search_text <@> q` there is evaluated per returned row as a
 *   standalone score (the row's text parsed again, corpus statistics read again), ~50x the cost of
 *   the scan itself at 10k chunks. In ORDER BY alone the extension's planner hook reads the score
 *   the scan already computed.
 * - No WHERE clause: with one (a connection filter) the planner may filter first and then score
 *   every remaining row standalone and sort them, seconds on a large connection. The filter is
 *   applied here instead, on an oversampled top list that grows until it fills (the extension's
 *   README advises this for post-filtering).
 * - `matched`: a plan that sorts instead of scanning the index (a tiny table) also returns rows
 *   that share no term with the query (score 0); a row matches when its space-separated tokens
 *   hold a query token, which is what the index tokenises (analyzer.ts keeps tokens whole).
 */
export async function keywordChannel(
  db: Db,
  keywordText: string,
  connectionIds: string[] | null,
): Promise<number[]> {
  const terms = keywordText.split(' ').filter((term) => term.length > 0);
  if (terms.length === 0) return [];
  const patterns = terms.map((term) => `% ${term.replace(/[\\%_]/g, '\\$&')} %`);
  const wanted = connectionIds ? new Set(connectionIds) : null;
  for (let oversample = wanted ? 4 : 1; ; oversample *= 4) {
    const limit = CHANNEL_DEPTH * oversample;
    const last = !wanted || oversample >= MAX_KEYWORD_OVERSAMPLE;
    const filter = wanted && last ? 'WHERE connection_id = ANY($3::text[])' : '';
    const rows = await db.query<{ id: string | number; connection_id: string; matched: boolean }>(
      `SELECT id, connection_id, (' ' || search_text || ' ') LIKE ANY ($2::text[]) AS matched
       FROM chunks ${filter} ORDER BY search_text <@> to_bm25query($1, '${BM25_INDEX}') LIMIT ${limit}`,
      filter ? [keywordText, patterns, connectionIds] : [keywordText, patterns],
    );
    const kept = rows.rows.filter((r) => r.matched && (!wanted || wanted.has(r.connection_id)));
    if (last || kept.length >= CHANNEL_DEPTH || rows.rows.length < limit)
      return kept.slice(0, CHANNEL_DEPTH).map((r) => Number(r.id));
  }
}
