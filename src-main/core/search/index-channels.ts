/**
 * The two local channels: SQL that returns ranked chunk ids, nothing else. Both take an optional
 * scope (null = every chunk in the index): the connections to search and, when a knowledge base,
 * tag or date filter is set, the documents that pass it (search-filters.ts). The scope is applied
 * inside each channel, so its top 30 is the best of the documents in scope.
 *
 * pg_textsearch scores a row cheaply only inside its Block-Max WAND index scan, and its planner
 * hook hands that score on only where it can see it: the ORDER BY of a top-level query (not a
 * CTE or an InitPlan, whose plans it does not walk). Everywhere else `search_text <@> q` scores
 * the row from scratch (its text parsed again, corpus statistics read again): 300 rows of that
 * cost ~300 ms here. So BM25 runs only as `SELECT … ORDER BY search_text <@> q LIMIT n` on its
 * own, and the vector channel takes the BM25 list it needs as a parameter
 * (docs/decisions/keyword-channel.md).
 */
import type { Db } from '../db/database';
import { spaceTable, vectorCast, type SpaceRecord } from '../index/embedding-spaces';
import { BM25_INDEX } from '../index/keyword-index';
import { toVectorLiteral } from '../index/vector-literal';
import { RRF_K, reciprocalRankFusion } from './rrf';

/** Candidates per channel before fusion. */
export const CHANNEL_DEPTH = 30;

/** Which chunks a channel may return; a null field does not restrict. */
export interface ChannelScope {
  connectionIds: readonly string[] | null;
  /** The documents that pass the document filters (knowledge base, tag, date); null = no such filter. */
  documentIds: readonly number[] | null;
}

/** A scope of connections only (what callers without document filters pass). */
export function connectionScope(connectionIds: readonly string[] | null): ChannelScope | null {
  return connectionIds ? { connectionIds, documentIds: null } : null;
}

/**
 * Up to this many documents in scope, the vector channel scores every chunk of them exactly
 * instead of walking HNSW: a filtered HNSW walk gives up after hnsw.max_scan_tuples (20,000) rows,
 * so a small knowledge base far from the query could come back empty. Scoring a few thousand
 * chunks' vectors costs milliseconds.
 */
export const EXACT_SCOPE_DOCUMENTS = 2_000;

function isEmpty(scope: ChannelScope | null): boolean {
  return scope?.connectionIds?.length === 0 || scope?.documentIds?.length === 0;
}

/**
 * Session settings for the vector channel. relaxed_order lets HNSW keep scanning when a
 * connection filter removes rows, instead of returning fewer than LIMIT
 * (https://github.com/pgvector/pgvector#iterative-index-scans). ef_search 200: at 10k chunks the
 * lexical candidates beside the HNSW walk hide its size (recall@10 0.97 at ef 40, 0.98 at 100), but
 * at 100k they are 300 of 100,000 and ef 40 dropped recall@10 to 0.657 where ef 200 had measured
 * 0.817 with HNSW alone; semantic spaces have only the walk. ef 200 cost 1.6 ms p50 at 10k against
 * 1.9 ms at 40 (bench/ann-sweep.ts, noise), see docs/decisions/vector-index.md. PGlite is one
 * session, so setting them once holds.
 */
export const HNSW_EF_SEARCH = 200;
export const HNSW_ITERATIVE_SCAN = 'relaxed_order';

export async function configureVectorSession(db: Db): Promise<void> {
  await db.exec(`SET hnsw.iterative_scan = ${HNSW_ITERATIVE_SCAN}; SET hnsw.ef_search = ${HNSW_EF_SEARCH}`);
}

export interface KeywordHits {
  /** The keyword channel: top chunk ids by BM25 within the connections asked for, best first. */
  ids: number[];
  /** The BM25 top `candidates` in the whole index, for vectorChannel (which applies the scope to them). */
  candidates: number[];
}

/**
 * The keyword channel, and optionally a deeper BM25 list for the vector channel, from one scan.
 *
 * - No score in the SELECT list and the scan at the top level (see the file comment).
 * - No WHERE clause: with one (a connection filter) the planner may filter first, then score
 *   every remaining row standalone and sort them: seconds on a large connection. The filter is
 *   applied here instead, on a top list that grows until it fills or holds every match (the
 *   extension's README advises this for post-filtering); the scan returns matching rows only.
 * - Except in one plan: on a tiny table Postgres may sort all rows by their standalone score
 *   instead of scanning the index, and rows sharing no term (score 0) then follow the matches.
 *   The channel's few ids are checked for a query token (what the index tokenises: analyzer.ts
 *   keeps tokens whole); the vector channel's candidates need no check (each is scored anyway).
 */
export async function keywordSearch(
  db: Db,
  keywordText: string,
  scope: ChannelScope | null,
  candidates = 0,
): Promise<KeywordHits> {
  const scan = await keywordScan(db, keywordText, scope, candidates);
  return { ids: await sharingATerm(db, scan.ids, scan.terms), candidates: scan.candidates };
}

/**
 * keywordSearch without its last check: `ids` may hold rows sharing none of `terms` (the tiny-table
 * plan above), for a caller that checks them in a statement it runs anyway (termPatterns).
 */
export async function keywordScan(
  db: Db,
  keywordText: string,
  scope: ChannelScope | null,
  candidates = 0,
): Promise<KeywordHits & { terms: string[] }> {
  const terms = keywordText.split(' ').filter((term) => term.length > 0);
  if (terms.length === 0 || isEmpty(scope)) return { ids: [], candidates: [], terms };
  const connections = scope?.connectionIds ? new Set(scope.connectionIds) : null;
  const documents = scope?.documentIds ? new Set(scope.documentIds) : null;
  const inScope = (r: { connection_id: string; document_id: string | number }) =>
    (!connections || connections.has(r.connection_id)) &&
    (!documents || documents.has(Number(r.document_id)));
  let lexical: number[] | null = null;
  for (let oversample = connections || documents ? 4 : 1; ; oversample *= 4) {
    const limit = Math.max(CHANNEL_DEPTH * oversample, lexical ? 0 : candidates);
    // The scope's columns only when there is a scope: every field returned costs a decode in PGlite's
    // client, and this scan returns up to 300 rows.
    const rows = await db.query<{ id: string | number; connection_id: string; document_id: string | number }>(
      `SELECT id${connections || documents ? ', connection_id, document_id' : ''} FROM chunks
       ORDER BY search_text <@> to_bm25query($1, '${BM25_INDEX}') LIMIT ${limit}`,
      [keywordText],
    );
    lexical ??= rows.rows.slice(0, candidates).map((r) => Number(r.id));
    const kept = connections || documents ? rows.rows.filter(inScope) : rows.rows;
    if (kept.length >= CHANNEL_DEPTH || rows.rows.length < limit) {
      return { ids: kept.slice(0, CHANNEL_DEPTH).map((r) => Number(r.id)), candidates: lexical, terms };
    }
  }
}

/** LIKE patterns for "holds one of `terms`" tested on `' ' || search_text || ' '` (whole tokens). */
export function termPatterns(terms: readonly string[]): string[] {
  return terms.map((term) => `% ${term.replace(/[\\%_]/g, '\\$&')} %`);
}

/** `ids` (in order) whose keyword text holds one of `terms`. */
async function sharingATerm(db: Db, ids: number[], terms: string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ id: string | number }>(
    `SELECT id FROM chunks WHERE id = ANY ($1::bigint[]) AND (' ' || search_text || ' ') LIKE ANY ($2::text[])`,
    [ids, termPatterns(terms)],
  );
  const matching = new Set(rows.rows.map((r) => Number(r.id)));
  return ids.filter((id) => matching.has(id));
}

/** The keyword channel alone: top chunk ids by BM25 (pg_textsearch) over `search_text`, best first. */
export async function keywordChannel(
  db: Db,
  keywordText: string,
  scope: ChannelScope | null,
): Promise<number[]> {
  return (await keywordSearch(db, keywordText, scope)).ids;
}

export interface VectorChannelOptions {
  /** Hits less similar than this are dropped. @default -1 (none) */
  minSimilarity?: number;
  /** More chunk ids to score exactly beside the HNSW candidates (KeywordHits.candidates). */
  candidates?: readonly number[];
  /** How many of the HNSW walk's hits are re-scored exactly. @default HNSW_CANDIDATES */
  hnswCandidates?: number;
}

/** The HNSW walk's hits the vector channel re-scores exactly (a diagnostic may ask for more). */
export const HNSW_CANDIDATES = CHANNEL_DEPTH;

/**
 * Top chunk ids by cosine distance in one embedding space, ranked exactly: candidates are the
 * HNSW walk's top 30 (or an exact scan, whichever the planner picks) plus the ids given, and
 * every candidate is scored with its stored vector. HNSW alone misses true neighbours where the
 * space has near-orthogonal clusters (the lexical built-in embedder: a greedy walk that starts in
 * another topic finds no way over); the chunks sharing the query's words are where a lexical
 * embedder's neighbours are, and scoring them exactly costs a few ms (search-tuning.ts,
 * docs/decisions/vector-index.md).
 * Hits less similar than `minSimilarity` are dropped: a nearest neighbour that shares nothing
 * with the query is noise, not a result.
 */
export async function vectorChannel(
  db: Db,
  space: SpaceRecord,
  queryVector: Float32Array,
  scope: ChannelScope | null,
  options: VectorChannelOptions = {},
): Promise<number[]> {
  const params: unknown[] = [];
  const sql = vectorChannelSql(space, queryVector, scope, options, params);
  if (!sql) return [];
  const rows = await db.query<{ chunk_id: string | number }>(sql, params);
  return rows.rows.map((r) => Number(r.chunk_id));
}

/**
 * vectorChannel's statement, for running it alone or inside another one (index-retrieval.ts): it
 * selects `chunk_id` and its 1-based `rank`, best first, appends its parameters to `params` and
 * numbers them from there. Null when the scope is empty.
 */
export function vectorChannelSql(
  space: SpaceRecord,
  queryVector: Float32Array,
  scope: ChannelScope | null,
  options: VectorChannelOptions,
  params: unknown[],
): string | null {
  if (isEmpty(scope)) return null;
  const table = spaceTable(space);
  const cast = vectorCast(space);
  const maxDistance = Math.min(2, Math.max(0, 1 - (options.minSimilarity ?? -1)));
  const ranked = `SELECT chunk_id, row_number() OVER (ORDER BY distance, chunk_id) AS rank FROM scored
     WHERE distance <= ${maxDistance} ORDER BY distance, chunk_id LIMIT ${CHANNEL_DEPTH}`;
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
               ORDER BY embedding <=> ${query}::${cast} LIMIT ${Math.trunc(options.hnswCandidates ?? HNSW_CANDIDATES)}))
         ${filter ? `AND ${conditions.map((c) => `e.${c}`).join(' AND ')}` : ''})
     ${ranked}`;
}

/**
 * The weight of the content-plus-frame query against the content-only one (1). Below 1 so that
 * 原因 in "TiKV channel full 是什么原因" breaks ties among pages about "TiKV channel full" but
 * cannot lift an FAQ full of 原因 over them; chosen on the real-documents train split
 * (docs/decisions/retrieval-on-real-documents.md).
 */
export const FRAME_QUERY_WEIGHT = 0.5;

/**
 * The keyword channel for a prepared query: BM25 over its content terms, fused (RRF) with BM25
 * over content plus question-frame terms at FRAME_QUERY_WEIGHT when the query has frame words.
 * `candidates` (for the vector channel) come from the content terms' scan.
 */
export async function keywordRanking(
  db: Db,
  query: { keywordText: string; frameKeywordText: string },
  scope: ChannelScope | null,
  candidates = 0,
): Promise<KeywordHits> {
  const content = await keywordSearch(db, query.keywordText, scope, candidates);
  if (!query.frameKeywordText || content.ids.length === 0) return content;
  const framed = await keywordChannel(db, query.frameKeywordText, scope);
  const ids = reciprocalRankFusion({ content: content.ids.map(String), framed: framed.map(String) }, RRF_K, {
    framed: FRAME_QUERY_WEIGHT,
  })
    .slice(0, CHANNEL_DEPTH)
    .map((item) => Number(item.key));
  return { ids, candidates: content.candidates };
}
