/**
 * The keyword channel's BM25 scan over `chunks.search_text` (pg_textsearch): SQL that returns
 * ranked chunk ids, nothing else.
 *
 * pg_textsearch scores a row cheaply only inside its Block-Max WAND index scan, and its planner
 * hook hands that score on only where it can see it: the ORDER BY of a top-level query (not a
 * CTE or an InitPlan, whose plans it does not walk). Everywhere else `search_text <@> q` scores
 * the row from scratch (its text parsed again, corpus statistics read again): 300 rows of that
 * cost ~300 ms here. So BM25 runs only as `SELECT … ORDER BY search_text <@> q LIMIT n` on its
 * own, and the rest of a search's reads take its ids as parameters in one statement
 * (index-retrieval.ts, docs/decisions/keyword-channel.md).
 */
import type { Db } from '../db/database';
import { BM25_INDEX } from '../index/keyword-index';
import { CHANNEL_DEPTH, scopeIsEmpty, type ChannelScope } from './channel-scope';

export interface KeywordScan {
  /** Top chunk ids by BM25 within the scope, best first; may hold rows sharing no term (see keywordScan). */
  ids: number[];
  /** Each id's BM25 score (> 0; 0 for a row sharing no term), only when asked for (`withScores`). */
  scores: number[] | null;
  /** The terms scanned for (keywordText split at spaces). */
  terms: string[];
}

/**
 * The keyword channel's scan: one statement (or a few when a scope keeps too few of the top rows).
 *
 * - The scan at the top level (see the file comment), and no score in the SELECT list unless
 *   `withScores` asks for it (document ranking, not applied in the app: ranking-rules.ts): with
 *   bm25_get_current_score() there, the tiny-table plan below returns matching rows only.
 * - No WHERE clause: with one (a connection filter) the planner may filter first, then score
 *   every remaining row standalone and sort them: seconds on a large connection. The filter is
 *   applied here instead, on a top list that grows until it fills or holds every match (the
 *   extension's README advises this for post-filtering); the scan returns matching rows only.
 * - Except in one plan: on a tiny table Postgres may sort all rows by their standalone score
 *   instead of scanning the index, and rows sharing no term (score 0) then follow the matches.
 *   So `ids` are not yet checked for a query token (what the index tokenises: analyzer.ts keeps
 *   tokens whole): the caller checks them in a statement it runs anyway (termPatterns), or
 *   through keywordMatches.
 */
export async function keywordScan(
  db: Db,
  keywordText: string,
  scope: ChannelScope | null,
  { depth = CHANNEL_DEPTH, withScores = false }: { depth?: number; withScores?: boolean } = {},
): Promise<KeywordScan> {
  const terms = keywordText.split(' ').filter((term) => term.length > 0);
  if (terms.length === 0 || scopeIsEmpty(scope)) return { ids: [], scores: withScores ? [] : null, terms };
  const connections = scope?.connectionIds ? new Set(scope.connectionIds) : null;
  const documents = scope?.documentIds ? new Set(scope.documentIds) : null;
  const inScope = (r: { connection_id: string; document_id: string | number }) =>
    (!connections || connections.has(r.connection_id)) &&
    (!documents || documents.has(Number(r.document_id)));
  for (let oversample = connections || documents ? 4 : 1; ; oversample *= 4) {
    const limit = depth * oversample;
    // The scope's columns only when there is a scope: every field returned costs a decode in PGlite's
    // client, and a scoped scan returns several times CHANNEL_DEPTH rows.
    // A score is the scan's own (bm25_get_current_score(): the planner hook's value for the ORDER
    // BY), not computed again.
    const columns = [
      'id',
      ...(withScores ? ['bm25_get_current_score() AS score'] : []),
      ...(connections || documents ? ['connection_id', 'document_id'] : []),
    ];
    const rows = await db.query<{
      id: string | number;
      score?: number;
      connection_id: string;
      document_id: string | number;
    }>(
      `SELECT ${columns.join(', ')} FROM chunks
       ORDER BY search_text <@> to_bm25query($1, '${BM25_INDEX}') LIMIT ${limit}`,
      [keywordText],
    );
    const kept = connections || documents ? rows.rows.filter(inScope) : rows.rows;
    if (kept.length >= depth || rows.rows.length < limit) {
      const top = kept.slice(0, depth);
      const scores = withScores ? top.map((r) => -Number(r.score)) : null;
      return { ids: top.map((r) => Number(r.id)), scores, terms };
    }
  }
}

/** LIKE patterns for "holds one of `terms`" tested on `' ' || search_text || ' '` (whole tokens). */
export function termPatterns(terms: readonly string[]): string[] {
  return terms.map((term) => `% ${term.replace(/[\\%_]/g, '\\$&')} %`);
}

/**
 * The chunks in scope whose keyword text holds one of the words of `keywordText`, best BM25 first
 * (at most CHANNEL_DEPTH): the scan with its term check as a statement of its own. A search runs
 * it only when it must know whether some word occurs anywhere (index-retrieval.ts).
 */
export async function keywordMatches(
  db: Db,
  keywordText: string,
  scope: ChannelScope | null,
): Promise<number[]> {
  const scan = await keywordScan(db, keywordText, scope);
  if (scan.ids.length === 0) return [];
  const rows = await db.query<{ id: string | number }>(
    `SELECT id FROM chunks WHERE id = ANY ($1::bigint[]) AND (' ' || search_text || ' ') LIKE ANY ($2::text[])`,
    [scan.ids, termPatterns(scan.terms)],
  );
  const matching = new Set(rows.rows.map((r) => Number(r.id)));
  return scan.ids.filter((id) => matching.has(id));
}
