/**
 * Bulk-write mode of the BM25 keyword index (pg_textsearch). New postings go to a memtable that
 * pg_textsearch turns into an immutable segment every `memtable_pages_threshold` pages (64 by
 * default) and merges segments as they pile up. During a large sync that means a spill and
 * merges every few hundred chunks: measured here, a 16% share of the write CPU at 20k chunks
 * (docs/decisions/indexing-throughput.md). A larger threshold during the burst spills rarely;
 * search keeps using the index throughout (unlike dropping it and building it afterwards, which
 * measured no cheaper and leaves keyword search without an index meanwhile).
 * After the burst, the memtable is spilled so a later cold open does not rebuild a large
 * in-memory cache on its first query.
 */
import type { Db } from '../db/database';

type Queryable = Pick<Db, 'query' | 'exec'>;

/** The BM25 index over `chunks.search_text` (its migration creates it under this name). */
export const BM25_INDEX = 'chunks_search_bm25';

/** Pages (8 kB) of memtable before a spill during a bulk write: 64 MB. */
export const BULK_MEMTABLE_PAGES = 8192;
/** Chunks a sync must plan before the bulk mode pays for its final spill. */
export const BULK_KEYWORD_MIN_CHUNKS = 1000;

export async function beginBulkKeywordWrites(db: Queryable): Promise<void> {
  await db.exec(`SET pg_textsearch.memtable_pages_threshold = ${BULK_MEMTABLE_PAGES}`);
}

/** Spills what the burst left in the memtable into a segment and restores the default threshold. */
export async function endBulkKeywordWrites(db: Queryable): Promise<void> {
  try {
    await db.query('SELECT bm25_spill_index($1)', [BM25_INDEX]);
  } finally {
    await db.exec('RESET pg_textsearch.memtable_pages_threshold');
  }
}
