/**
 * Search structures beside the core schema.
 * - The BM25 keyword index over `chunks.search_text` (pg_textsearch; chosen over tsvector +
 *   ts_rank_cd by measurement, see docs/decisions/keyword-channel.md). `search_text` is already
 *   analysed (CJK segmented, Latin folded) and space-joined, so the 'simple' configuration only
 *   has to split on spaces.
 * - A sequence naming embedding-space tables (`embeddings_<n>`): each space gets a fresh table,
 *   so a re-embed never writes into the table that is serving search.
 */
export const sql = /* sql */ `
CREATE EXTENSION IF NOT EXISTS pg_textsearch;
CREATE INDEX chunks_search_bm25 ON chunks USING bm25 (search_text) WITH (text_config = 'simple');
CREATE SEQUENCE embedding_space_seq;
`;
