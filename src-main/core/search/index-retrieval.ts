/**
 * Everything a search reads from the local index: the BM25 scans (keyword-scan.ts), then one
 * statement with the vector channel's ranking (vector-channel.ts), the check that the keyword hits
 * share a query term (the scan's last step), and the rows of every chunk either channel returned
 * (what the fused results are built from). One statement instead of three or four: PGlite pays a fixed cost per statement (six
 * protocol messages, a plan), a few hundred microseconds of CPU each, and a search's statements
 * queue behind each other's (issue #15, docs/decisions/search-during-sync.md). The BM25 scans stay
 * statements of their own: the extension scores cheaply only at the top level of a query.
 *
 * This is the path the app's HybridSearch takes, and the one the evaluation and the benchmark
 * measure (bench/evaluate-collection.ts, bench/query-scenario.ts).
 */
import type { ChunkLocation } from '@shared/models';
import type { Db } from '../db/database';
import type { SpaceRecord } from '../index/embedding-spaces';
import { BM25_INDEX } from '../index/keyword-index';
import { CHANNEL_DEPTH, type ChannelScope } from './channel-scope';
import { rankByDocument } from './document-ranking';
import { keywordScan, termPatterns } from './keyword-scan';
import { ALL_RULES, type RankingRules } from './ranking-rules';
import { RRF_K, reciprocalRankFusion } from './rrf';
import { vectorChannelSql } from './vector-channel';

/**
 * The weight of the content-plus-frame query against the content-only one (1). Below 1 so that
 * 原因 in "TiKV channel full 是什么原因" breaks ties among pages about "TiKV channel full" but
 * cannot lift an FAQ full of 原因 over them; chosen on the real-documents train split
 * (docs/decisions/retrieval-on-real-documents.md).
 */
export const FRAME_QUERY_WEIGHT = 0.5;

/** Chunks the content scan ranks when documents are ranked from their passages (document-ranking.ts). */
export const DOCUMENT_SCAN_DEPTH = 100;
/** Chunks of one document in the keyword ranking when documents are ranked (HybridSearch keeps 3). */
const CHUNKS_PER_DOCUMENT = 3;

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

export interface IndexRetrievalInput {
  /** The prepared query's keyword texts (query-text.ts PreparedQuery). */
  query: { keywordText: string; frameKeywordText: string };
  /** Where to search (search-filters.ts indexScope); null = every chunk. */
  scope: ChannelScope | null;
  /**
   * Chunks each channel ranks, keyword and vector alike (CHANNEL_DEPTH by default). Deeper only for
   * a page past the first and the date order (HybridSearch: "Show more"), which append what they
   * add after the default ranking: a document only one channel finds (a paraphrase, for the vector
   * channel) can then reach the further ranks too. At most DEEPEST_CHANNEL_DEPTH.
   */
  depth?: number;
  /** The vector channel, or null when it is skipped. */
  vector: {
    space: SpaceRecord;
    /** The query's vector; may still be computing while the BM25 scans run; null skips the channel. */
    queryVector: Float32Array | null | Promise<Float32Array | null>;
    /** Vector hits less similar than this are dropped. @default none */
    minSimilarity?: number;
  } | null;
}

export interface IndexRetrieval {
  /** The vector channel's ranking (best first; empty when it did not run). */
  vector: number[];
  /** The space the vector channel ranked in; null when it did not run. */
  vectorSpace: SpaceRecord | null;
  /**
   * The keyword channel's ranking: BM25 over the content terms, fused at FRAME_QUERY_WEIGHT with
   * BM25 over content plus question-frame terms when the query has frame words. A query word that
   * occurs nowhere does not empty it: the pages holding its other words are found (issue #24).
   */
  keyword: number[];
  /**
   * The keyword scan filled its depth: more chunks may hold the query's words than it ranked, so a
   * count of matching documents made from these candidates is a lower bound.
   */
  keywordFull: boolean;
  /** The rows of every id in either ranking (and of the keyword ids that failed a check). */
  rows: Map<number, IndexedChunkRow>;
}

interface RetrievedRow extends IndexedChunkRow {
  vector_rank: string | number | null;
  /** Absent when there was nothing to check (no terms): false. */
  content_match?: boolean;
  frame_match?: boolean;
}

const NO_VECTOR = 'SELECT NULL::bigint AS chunk_id, NULL::bigint AS rank WHERE false';

export async function retrieveFromIndex(
  db: Db,
  input: IndexRetrievalInput,
  rules: Pick<RankingRules, 'frameTier' | 'documentRanking'> = ALL_RULES,
): Promise<IndexRetrieval> {
  const { scope } = input;
  // Without the frame tier, the content-plus-frame words are the one BM25 query.
  const query = rules.frameTier
    ? input.query
    : { keywordText: input.query.frameKeywordText || input.query.keywordText, frameKeywordText: '' };
  const documents = rules.documentRanking;
  const depth = Math.max(CHANNEL_DEPTH, input.depth ?? CHANNEL_DEPTH);
  const contentDepth = documents ? Math.max(DOCUMENT_SCAN_DEPTH, depth) : depth;
  const content = await keywordScan(db, query.keywordText, scope, {
    depth: contentDepth,
    withScores: Boolean(documents),
  });
  const framed =
    query.frameKeywordText && content.ids.length > 0
      ? await keywordScan(db, query.frameKeywordText, scope, { depth })
      : null;
  const queryVector = input.vector ? await input.vector.queryVector : null;
  const space = input.vector && queryVector ? input.vector.space : null;

  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const vectorSql =
    space && queryVector
      ? vectorChannelSql(
          space,
          queryVector,
          scope,
          { depth, minSimilarity: input.vector!.minSimilarity },
          params,
        )
      : null;
  const contentIds = param(content.ids);
  const framedIds = param(framed?.ids ?? []);
  // A term check per keyword id only (a vector-only row's keyword text is never read).
  // A check with no terms is not selected at all: every field returned costs a decode in PGlite's
  // client, and most queries have no frame words.
  const holds = (ids: string, terms: readonly string[], name: keyof RetrievedRow) =>
    terms.length === 0
      ? ''
      : `, CASE WHEN c.id = ANY(${ids}::bigint[]) THEN (' ' || c.search_text || ' ') LIKE ANY (${param(termPatterns(terms))}::text[]) ELSE false END AS ${name}`;
  const result = await db.query<RetrievedRow>(
    `WITH vec AS MATERIALIZED (${vectorSql ?? NO_VECTOR}),
     wanted AS (
       SELECT chunk_id AS id FROM vec
       UNION SELECT unnest(${contentIds}::bigint[])
       UNION SELECT unnest(${framedIds}::bigint[]))
     SELECT c.id, v.rank AS vector_rank
            ${holds(contentIds, content.terms, 'content_match')}
            ${holds(framedIds, framed?.terms ?? [], 'frame_match')},
            c.content, c.heading_path, c.char_start, c.char_end, c.location, d.id AS document_id,
            d.external_id, d.title, d.knowledge_base, d.url, d.connection_id
     FROM wanted w JOIN chunks c ON c.id = w.id JOIN documents d ON d.id = c.document_id
       LEFT JOIN vec v ON v.chunk_id = c.id`,
    params,
  );
  const rows = new Map(result.rows.map((row) => [Number(row.id), row]));
  const vector = result.rows
    .filter((row) => row.vector_rank !== null)
    .sort((a, b) => Number(a.vector_rank) - Number(b.vector_rank))
    .map((row) => Number(row.id));
  let contentHits = content.ids.filter((id) => rows.get(id)?.content_match);
  if (documents && contentHits.length > 0) {
    const scoreOf = new Map(content.ids.map((id, i) => [id, content.scores![i]!]));
    contentHits = rankByDocument(
      contentHits.map((id) => ({ id, score: scoreOf.get(id)! })),
      (id) => rows.get(id),
      documents.title > 0 || documents.headings > 0 ? await termWeights(db, content.terms) : new Map(),
      documents,
      CHUNKS_PER_DOCUMENT,
    ).slice(0, depth);
  }
  const framedHits = framed?.ids.filter((id) => rows.get(id)?.frame_match) ?? [];
  // No content hit, no keyword hit; frame words only break ties among content hits.
  const keyword =
    framed && contentHits.length > 0
      ? reciprocalRankFusion({ content: contentHits.map(String), framed: framedHits.map(String) }, RRF_K, {
          framed: FRAME_QUERY_WEIGHT,
        })
          .slice(0, depth)
          .map((item) => Number(item.key))
      : contentHits;
  // Full when the scan stopped at its depth on a row that holds a query word: on a tiny table the
  // rows past the last match come back too (keyword-scan.ts), and then every match was seen.
  const last = content.ids.at(-1);
  const keywordFull =
    content.ids.length >= contentDepth && last !== undefined && rows.get(last)?.content_match === true;
  return { vector, vectorSpace: space, keyword, keywordFull, rows };
}

/**
 * Each term's BM25 score as a one-word text against the keyword index's statistics: its IDF on the
 * scale of a chunk's score (0 for a term no chunk holds), for the title and heading fields.
 */
async function termWeights(db: Db, terms: readonly string[]): Promise<Map<string, number>> {
  const distinct = [...new Set(terms)];
  const result = await db.query<{ term: string; weight: number }>(
    `SELECT term, -bm25_text_bm25query_score(term, to_bm25query(term, '${BM25_INDEX}')) AS weight
     FROM unnest($1::text[]) AS term`,
    [distinct],
  );
  return new Map(result.rows.map((row) => [row.term, Number(row.weight)]));
}
