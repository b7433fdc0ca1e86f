/**
 * The SQL of a document write, for any number of documents at once: rows travel as arrays
 * through unnest(), so a group of documents costs one statement per table instead of one per
 * table per document. PGlite pays a fixed price per statement (parse, bind, describe, execute,
 * each a trip into WASM): with the bench's one-or-two-chunk documents that price, not the rows,
 * was most of the write time (docs/decisions/indexing-throughput.md).
 * Callers run these inside their transaction.
 */
import type { Chunk } from '../chunking/chunker';
import type { Db } from '../db/database';
import { CairnError } from '../errors';
import { ANALYSIS_VERSION } from './analysis-version';
import type { DocumentToWrite } from './document-store';
import { runWithLargeText, type WireSession } from './large-text-statement';

type Queryable = Pick<Db, 'query'>;

/** Rows per INSERT … unnest() statement, to bound one statement's parameter text. */
const ROWS_PER_STATEMENT = 500;

/**
 * A document text longer than this (characters) is not sent inside the documents' array
 * parameter but alone, as a plain text parameter of its own UPDATE in the same transaction. Inside
 * a text[] literal Postgres holds the escaped literal, the parsed array and the row at once: an
 * 18 MB Chinese text grew PGlite's WebAssembly heap (which never shrinks) by 105 MB that way and by
 * 48 MB alone (docs/decisions/large-documents.md).
 */
export const LARGE_CONTENT_CHARS = 256 * 1024;

/** A remote time that Postgres can store, or null: platforms send odd values and they must not fail a write. */
export function timestampOrNull(value: string | null): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

function documentKey(connectionId: string, externalId: string): string {
  return `${connectionId}\u0000${externalId}`;
}

function slices<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_STATEMENT)
    out.push(items.slice(start, start + ROWS_PER_STATEMENT));
  return out;
}

/**
 * Inserts or updates the document rows; returns their ids in input order. Two entries for one
 * document make Postgres refuse the statement ("cannot affect row a second time"): the caller's
 * transaction then rolls back whole.
 */
export async function upsertDocuments(tx: Queryable, docs: DocumentToWrite[]): Promise<number[]> {
  const ids: number[] = [];
  for (const group of slices(docs)) {
    const upserted = await tx.query<{ id: string | number; connection_id: string; external_id: string }>(
      `INSERT INTO documents (connection_id, external_id, title, knowledge_base, url, remote_updated_at, revision, content_hash, content, indexed_at, chunk_count, metadata, analysis_version)
       SELECT u.connection_id, u.external_id, u.title, u.knowledge_base, u.url, u.remote_updated_at, u.revision, u.content_hash, u.content, now(), u.chunk_count, u.metadata::jsonb, ${ANALYSIS_VERSION}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::text[], $10::int[], $11::text[])
         AS u(connection_id, external_id, title, knowledge_base, url, remote_updated_at, revision, content_hash, content, chunk_count, metadata)
       ON CONFLICT (connection_id, external_id) DO UPDATE SET
         title = EXCLUDED.title, knowledge_base = EXCLUDED.knowledge_base, url = EXCLUDED.url,
         remote_updated_at = EXCLUDED.remote_updated_at, revision = EXCLUDED.revision,
         content_hash = EXCLUDED.content_hash, content = EXCLUDED.content, indexed_at = now(),
         chunk_count = EXCLUDED.chunk_count, metadata = EXCLUDED.metadata,
         analysis_version = EXCLUDED.analysis_version
       RETURNING id, connection_id, external_id`,
      [
        group.map((d) => d.connectionId),
        group.map((d) => d.ref.externalId),
        group.map((d) => d.title),
        group.map((d) => d.ref.knowledgeBase),
        group.map((d) => d.ref.url),
        group.map((d) => timestampOrNull(d.ref.remoteUpdatedAt)),
        group.map((d) => d.ref.revision),
        group.map((d) => d.contentHash),
        group.map((d) => (d.content.length > LARGE_CONTENT_CHARS ? '' : d.content)),
        group.map((d) => d.chunks.length),
        group.map((d) => JSON.stringify(d.metadata ?? {})),
      ],
    );
    const idByKey = new Map(
      upserted.rows.map((r) => [documentKey(r.connection_id, r.external_id), Number(r.id)]),
    );
    for (const doc of group) {
      const id = idByKey.get(documentKey(doc.connectionId, doc.ref.externalId));
      if (id === undefined) throw new CairnError('INTERNAL', `No row came back for "${doc.title}".`);
      ids.push(id);
    }
  }
  return ids;
}

/**
 * The texts longer than LARGE_CONTENT_CHARS, which upsertDocuments left empty: each in an UPDATE of
 * its own in the same transaction (no reader ever sees the row without its text). Run before the
 * chunks: PGlite's WebAssembly heap grows by about four times such a text for its statement (the
 * message, the datum, the row) and never gives that back, and it grew by more when the text came
 * after 6,000 chunk rows had scattered what it had freed (docs/decisions/large-documents.md). The text
 * is framed once on the transaction's own session `wire` (large-text-statement.ts), not copied four
 * times by query().
 */
export async function writeLargeContents(
  docs: DocumentToWrite[],
  documentIds: number[],
  wire: WireSession,
  afterStatement?: () => void,
): Promise<void> {
  const statement = 'UPDATE documents SET content = $2 WHERE id = $1';
  for (const [index, doc] of docs.entries()) {
    if (doc.content.length <= LARGE_CONTENT_CHARS) continue;
    const tag = await runWithLargeText(wire, statement, [String(documentIds[index]!), doc.content]);
    if (tag !== 'UPDATE 1') throw new CairnError('INTERNAL', `No row took the text of "${doc.title}".`);
    afterStatement?.();
  }
}

export interface ChunkRow {
  doc: DocumentToWrite;
  chunk: Chunk;
  /** The analysed keyword text (`keywordInput`). */
  searchText: string;
}

/** The rows of an iterable in arrays of at most ROWS_PER_STATEMENT, taken as they are needed. */
function* statementSlices<T>(rows: Iterable<T>): Generator<T[]> {
  let slice: T[] = [];
  for (const row of rows) {
    slice.push(row);
    if (slice.length === ROWS_PER_STATEMENT) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
}

/**
 * Inserts chunks with their keyword text: one statement per 500 rows. Rows are taken from `rows`
 * one statement's worth at a time, so a generator keeps only those in memory; `afterStatement`
 * runs after each (release-memory.ts, for a very large document).
 */
export async function insertChunks(
  tx: Queryable,
  rows: Iterable<ChunkRow>,
  documentIdOf: (doc: DocumentToWrite) => number,
  afterStatement?: () => void,
): Promise<void> {
  for (const group of statementSlices(rows)) {
    await tx.query(
      `INSERT INTO chunks (document_id, connection_id, ord, heading_path, content, char_start, char_end, search_text, location)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::jsonb[])`,
      [
        group.map((r) => documentIdOf(r.doc)),
        group.map((r) => r.doc.connectionId),
        group.map((r) => r.chunk.ord),
        group.map((r) => r.chunk.headingPath),
        group.map((r) => r.chunk.text),
        group.map((r) => r.chunk.charStart),
        group.map((r) => r.chunk.charEnd),
        group.map((r) => r.searchText),
        group.map((r) => (r.chunk.location ? JSON.stringify(r.chunk.location) : null)),
      ],
    );
    afterStatement?.();
  }
}

/**
 * Queues the written documents for the semantic index when there is one (a space registered in
 * index_meta: embedding-spaces.ts); with keyword search only, nothing is queued. A rewritten
 * document the provider refused before is tried again at once: its text changed.
 */
export async function queueForSemanticIndex(tx: Queryable, documentIds: number[]): Promise<void> {
  await tx.query(
    `INSERT INTO embedding_queue (document_id)
     SELECT unnest($1::bigint[]) WHERE EXISTS (SELECT 1 FROM index_meta WHERE key IN ('embedding.active', 'embedding.pending'))
     ON CONFLICT (document_id) DO UPDATE SET attempts = 0, retry_at = NULL`,
    [documentIds],
  );
}
