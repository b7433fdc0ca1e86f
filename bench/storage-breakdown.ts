/**
 * Where a data directory's bytes go (issue #26 item 4): the database's tables (heap, with their
 * free-space and visibility maps), their TOAST tables, the B-tree indexes, the BM25 keyword index,
 * the vector tables and their approximate-nearest-neighbour indexes, the write-ahead log, PGlite's
 * template databases (template0/template1, made by initdb), and the rest (the system catalogue of
 * the database itself, global/, transaction status). Read from Postgres' own size functions while
 * the database is open, and from the files for the WAL and the directory's total.
 */
import { join } from 'node:path';
import type { Db } from '../src-main/core/db/database';
import { directorySize } from './process-stats';

export interface StorageBreakdown {
  /** Bytes of the whole data directory on disk. */
  total: number;
  /** Our tables' main forks, free-space and visibility maps (vector tables excluded). */
  heap: number;
  /** Out-of-line values of those tables (long texts). */
  toast: number;
  /** B-tree indexes of those tables (primary keys, unique and lookup indexes). */
  btree: number;
  /** The BM25 keyword index (pg_textsearch). */
  keywordIndex: number;
  /** Embedding-space tables with their TOAST and primary keys. */
  vectorTables: number;
  /** HNSW (or other approximate) indexes over the vectors. */
  vectorIndex: number;
  /** pg_wal. */
  wal: number;
  /** template0 + template1. */
  templates: number;
  /** Everything else: the database's own system catalogue, global/, pg_xact, … */
  other: number;
}

interface RelationRow {
  relname: string;
  kind: string;
  am: string | null;
  /** The table an index or TOAST table belongs to. */
  owner: string | null;
  bytes: string | number;
}

/** Sizes of every relation of the public schema (and their TOAST tables), grouped. */
export async function storageBreakdown(db: Db, dataDir: string): Promise<StorageBreakdown> {
  const rows = (
    await db.query<RelationRow>(
      `SELECT c.relname, c.relkind AS kind, am.amname AS am,
              coalesce(owner_index.relname, owner_toast.relname, owner_toast_index.relname) AS owner,
              pg_table_size(c.oid) - CASE WHEN c.relkind = 'r' AND c.reltoastrelid <> 0 THEN pg_total_relation_size(c.reltoastrelid) ELSE 0 END AS bytes
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_am am ON am.oid = c.relam
       LEFT JOIN pg_index i ON i.indexrelid = c.oid
       LEFT JOIN pg_class owner_index ON owner_index.oid = i.indrelid AND owner_index.relkind = 'r'
       LEFT JOIN pg_class owner_toast ON owner_toast.reltoastrelid = c.oid
       LEFT JOIN pg_class toast_of_index ON toast_of_index.oid = i.indrelid AND toast_of_index.relkind = 't'
       LEFT JOIN pg_class owner_toast_index ON owner_toast_index.reltoastrelid = toast_of_index.oid
       WHERE (n.nspname = 'public' OR (n.nspname = 'pg_toast' AND (owner_toast.oid IS NOT NULL OR owner_toast_index.oid IS NOT NULL)))
         AND c.relkind IN ('r', 'i', 't', 'm')`,
    )
  ).rows;
  const isVectorTable = (name: string | null) => name !== null && /^embeddings_\d+$/.test(name);
  const breakdown: StorageBreakdown = {
    total: directorySize(dataDir),
    heap: 0,
    toast: 0,
    btree: 0,
    keywordIndex: 0,
    vectorTables: 0,
    vectorIndex: 0,
    wal: directorySize(join(dataDir, 'pg_wal')),
    templates: 0,
    other: 0,
  };
  for (const row of rows) {
    const bytes = Number(row.bytes);
    const owner = row.kind === 'r' ? row.relname : row.owner;
    if (isVectorTable(owner)) {
      if (row.kind === 'i' && row.am !== 'btree') breakdown.vectorIndex += bytes;
      else breakdown.vectorTables += bytes;
    } else if (row.kind === 'i' && row.am === 'bm25') breakdown.keywordIndex += bytes;
    else if (row.kind === 'i' && row.am !== 'btree') breakdown.vectorIndex += bytes;
    else if (row.kind === 'i') breakdown.btree += bytes;
    else if (row.kind === 't') breakdown.toast += bytes;
    else breakdown.heap += bytes;
  }
  const templates = await db.query<{ bytes: string | number }>(
    `SELECT coalesce(sum(pg_database_size(datname)), 0) AS bytes FROM pg_database WHERE datname IN ('template0', 'template1')`,
  );
  breakdown.templates = Number(templates.rows[0]?.bytes ?? 0);
  const counted =
    breakdown.heap +
    breakdown.toast +
    breakdown.btree +
    breakdown.keywordIndex +
    breakdown.vectorTables +
    breakdown.vectorIndex +
    breakdown.wal +
    breakdown.templates;
  breakdown.other = Math.max(0, breakdown.total - counted);
  return breakdown;
}
