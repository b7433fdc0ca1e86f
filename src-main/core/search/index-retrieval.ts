/**
 * Everything a hybrid search reads from the index after its BM25 scans, in one statement: the
 * vector channel's ranking, the check that the keyword hits share a query term (keywordSearch's
 * last step), whether they hold one of the query's distinctive words, and the rows of every chunk
 * either channel returned (what the fused results are built from). One statement instead of three
 * or four: PGlite pays a fixed cost per statement (six protocol messages, a plan), a few hundred
 * microseconds of CPU each, and a search's statements queue behind each other's (issue #15,
 * docs/decisions/search-during-sync.md). The BM25 scans stay statements of their own: the
 * extension scores cheaply only at the top level of a query (index-channels.ts).
 */
import type { ChunkLocation } from '@shared/models';
import type { Db } from '../db/database';
import { RRF_K, reciprocalRankFusion } from './rrf';
import { CHANNEL_DEPTH, FRAME_QUERY_WEIGHT, termPatterns, vectorChannelSql } from './index-channels';
import type { ChannelScope, VectorChannelOptions } from './index-channels';
import type { SpaceRecord } from '../index/embedding-spaces';

/** A chunk's row as search results need it (its connection's platform comes from the catalog). */
export interface IndexedChunkRow {
  id: string | number;
  content: string;
  heading_path: string;
  char_start: number;
  char_end: number;
  location: ChunkLocation | null;
  document_id: string | number;
  external_id: string;
  title: string;
  knowledge_base: string;
  url: string | null;
  connection_id: string;
}

/** A BM25 scan's top ids, not yet checked for a query term (index-channels.ts keywordScan). */
export interface UncheckedKeywordList {
  ids: readonly number[];
  terms: readonly string[];
}

export interface IndexRetrievalInput {
  /** The content terms' scan. */
  content: UncheckedKeywordList;
  /** The content-plus-frame terms' scan, fused at FRAME_QUERY_WEIGHT; null when the query has no frame words. */
  framed: UncheckedKeywordList | null;
  /** The vector channel's query, or null when it is skipped. */
  vector: {
    space: SpaceRecord;
    queryVector: Float32Array;
    scope: ChannelScope | null;
    options: VectorChannelOptions;
  } | null;
  /** Words one of which must occur in a keyword hit for no extra check to be needed (HybridSearch). */
  distinctive: readonly string[];
}

export interface IndexRetrieval {
  /** The vector channel's ranking (vectorChannel's). */
  vector: number[];
  /** The keyword channel's ranking (keywordRanking's). */
  keyword: number[];
  /** Whether one of the keyword hits holds a distinctive word (false when there are none). */
  keywordHoldsDistinctive: boolean;
  /** The rows of every id in either ranking (and of the keyword ids that failed the term check). */
  rows: Map<number, IndexedChunkRow>;
}

interface RetrievedRow extends IndexedChunkRow {
  vector_rank: string | number | null;
  /** Absent when there was nothing to check (no terms): false. */
  content_match?: boolean;
  frame_match?: boolean;
  distinctive?: boolean;
}

export async function retrieveFromIndex(db: Db, input: IndexRetrievalInput): Promise<IndexRetrieval> {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const vectorSql = input.vector
    ? vectorChannelSql(
        input.vector.space,
        input.vector.queryVector,
        input.vector.scope,
        input.vector.options,
        params,
      )
    : null;
  const contentIds = param(input.content.ids);
  const framedIds = param(input.framed?.ids ?? []);
  // A term check per keyword id only (a vector-only row's keyword text is never read).
  // A check with no terms is not selected at all: every field returned costs a decode in PGlite's
  // client, and most queries have no frame words and no distinctive ones.
  const holds = (ids: string, terms: readonly string[], name: keyof RetrievedRow) =>
    terms.length === 0
      ? ''
      : `, CASE WHEN c.id = ANY(${ids}::bigint[]) THEN (' ' || c.search_text || ' ') LIKE ANY (${param(termPatterns(terms))}::text[]) ELSE false END AS ${name}`;
  const rows = await db.query<RetrievedRow>(
    `WITH vec AS MATERIALIZED (${vectorSql ?? 'SELECT NULL::bigint AS chunk_id, NULL::bigint AS rank WHERE false'}),
     wanted AS (
       SELECT chunk_id AS id FROM vec
       UNION SELECT unnest(${contentIds}::bigint[])
       UNION SELECT unnest(${framedIds}::bigint[]))
     SELECT c.id, v.rank AS vector_rank
            ${holds(contentIds, input.content.terms, 'content_match')}
            ${holds(framedIds, input.framed?.terms ?? [], 'frame_match')}
            ${holds(`${contentIds}::bigint[] || ${framedIds}`, input.distinctive, 'distinctive')},
            c.content, c.heading_path, c.char_start, c.char_end, c.location, d.id AS document_id,
            d.external_id, d.title, d.knowledge_base, d.url, d.connection_id
     FROM wanted w JOIN chunks c ON c.id = w.id JOIN documents d ON d.id = c.document_id
       LEFT JOIN vec v ON v.chunk_id = c.id`,
    params,
  );
  const byId = new Map(rows.rows.map((row) => [Number(row.id), row]));
  const vector = rows.rows
    .filter((row) => row.vector_rank !== null)
    .sort((a, b) => Number(a.vector_rank) - Number(b.vector_rank))
    .map((row) => Number(row.id));
  const content = input.content.ids.filter((id) => byId.get(id)?.content_match);
  const framed = input.framed?.ids.filter((id) => byId.get(id)?.frame_match) ?? [];
  // keywordRanking: no content hit, no keyword hit; frame words only break ties among content hits.
  const keyword =
    input.framed && content.length > 0
      ? reciprocalRankFusion({ content: content.map(String), framed: framed.map(String) }, RRF_K, {
          framed: FRAME_QUERY_WEIGHT,
        })
          .slice(0, CHANNEL_DEPTH)
          .map((item) => Number(item.key))
      : content;
  return {
    vector,
    keyword,
    keywordHoldsDistinctive: keyword.some((id) => byId.get(id)?.distinctive),
    rows: new Map(rows.rows.map((row) => [Number(row.id), row])),
  };
}
