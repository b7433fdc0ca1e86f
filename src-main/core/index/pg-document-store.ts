/**
 * DocumentStore over PGlite/Postgres. A document is written inside ONE transaction (upsert the
 * document, delete its old chunks — their vectors go by cascade in every space — insert the new
 * chunks with their keyword text, queue it for the semantic index if there is one), alone or with
 * a group of others (`writeDocuments`), so a crash or cancel leaves every document in its last
 * good state. Rows travel as arrays through unnest() (document-rows.ts): one statement per table
 * for the whole group, whatever its size.
 */
import { accessGate } from '../db/access-gate';
import { CairnError, throwIfAborted } from '../errors';
import type { Db } from '../db/database';
import type { DocumentRef } from '../connectors/connector';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import type { DocumentStore, DocumentToWrite, StoredDocumentState } from './document-store';
import { embeddingInput, metadataText, withKeywordExtras } from './embedding-input';
import { RELEASE_MEMORY_CHARS, releaseMemory } from './release-memory';
import { toSearchText } from '../text/analyzer';
import { BULK_KEYWORD_MIN_CHUNKS, beginBulkKeywordWrites, endBulkKeywordWrites } from './keyword-index';
import {
  insertChunks,
  queueForSemanticIndex,
  timestampOrNull,
  upsertDocuments,
  writeLargeContents,
  type ChunkRow,
} from './document-rows';

/** Documents per DELETE … ANY() statement, to bound one statement's parameter text. */
const ROWS_PER_STATEMENT = 500;
/** A write of more chunks than this analyses its rows inside the transaction, slice by slice. */
const LAZY_ROWS_FROM_CHUNKS = 1000;
/** Chunks per document assumed before a connection has any, for bulk-write planning. */
const DEFAULT_CHUNKS_PER_DOCUMENT = 3;

interface StateRow {
  id: string | number;
  external_id: string;
  title: string;
  knowledge_base: string;
  url: string | null;
  revision: string | null;
  remote_updated_at: Date | string | null;
  content_hash: string;
  chunk_count: number;
  analysis_version: number;
}

function isoOrNull(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** Each chunk's row, with its keyword text (the embedder's, or analysed here). */
function* chunkRows(docs: DocumentToWrite[]): Generator<ChunkRow> {
  for (const doc of docs)
    for (const [index, chunk] of doc.chunks.entries())
      yield {
        doc,
        chunk,
        // Document metadata is searchable once, through the first chunk, not repeated in every chunk.
        searchText: withKeywordExtras(
          doc.searchTexts?.[index] ??
            toSearchText(
              embeddingInput({ title: doc.title, headingPath: chunk.headingPath, text: chunk.text }),
            ),
          { text: chunk.text, metadata: chunk.ord === 0 ? metadataText(doc.metadata) : '' },
        ),
      };
}

export class PgDocumentStore implements DocumentStore {
  private readonly logger: Logger;
  /** The BM25 index is in bulk mode (set by prepareBulkWrite, ended by optimize). */
  private bulkKeywordWrites = false;

  constructor(
    private readonly db: Db,
    options: { logger?: Logger } = {},
  ) {
    this.logger = options.logger ?? silentLogger();
  }

  async listStates(connectionId: string): Promise<Map<string, StoredDocumentState>> {
    const rows = await this.db.query<StateRow>(
      `SELECT id, external_id, title, knowledge_base, url, revision, remote_updated_at, content_hash, chunk_count, analysis_version
       FROM documents WHERE connection_id = $1`,
      [connectionId],
    );
    const states = new Map<string, StoredDocumentState>();
    for (const r of rows.rows) {
      states.set(r.external_id, {
        id: Number(r.id),
        externalId: r.external_id,
        title: r.title,
        knowledgeBase: r.knowledge_base,
        url: r.url,
        revision: r.revision,
        remoteUpdatedAt: isoOrNull(r.remote_updated_at),
        contentHash: r.content_hash,
        chunkCount: r.chunk_count,
        analysisVersion: r.analysis_version,
      });
    }
    return states;
  }

  async writeDocument(doc: DocumentToWrite): Promise<{ documentId: number }> {
    const [written] = await this.writeDocuments([doc]);
    if (!written) throw new CairnError('INTERNAL', `No row came back for "${doc.title}".`);
    return written;
  }

  async writeDocuments(docs: DocumentToWrite[]): Promise<{ documentId: number }[]> {
    if (docs.length === 0) return [];
    // JavaScript work (analysis, when the embedder did not bring it) happens before the
    // transaction, which holds the database; except for a large write, whose rows are analysed one
    // statement's worth at a time so it never holds every chunk's keyword text at once.
    const total = docs.reduce((sum, doc) => sum + doc.chunks.length, 0);
    const eager = total <= LAZY_ROWS_FROM_CHUNKS ? [...chunkRows(docs)] : null;
    // A very large document's statements each leave tens of MB of garbage (its text parameter,
    // each statement's keyword texts and literals): collected after each, they do not pile up.
    const release = docs.some((doc) => doc.content.length > RELEASE_MEMORY_CHARS)
      ? () => void releaseMemory()
      : undefined;
    // Searches that started before this write go first (access-gate.ts).
    return accessGate(this.db).write(() =>
      this.db.transaction(async (tx) => {
        const documentIds = await upsertDocuments(tx, docs);
        // Very large texts first, each one framed message of this transaction's session (document-rows.ts).
        await writeLargeContents(docs, documentIds, this.db, release);
        await tx.query('DELETE FROM chunks WHERE document_id = ANY($1::bigint[])', [documentIds]);
        const documentIdOf = new Map(docs.map((doc, index) => [doc, documentIds[index]!]));
        await insertChunks(tx, eager ?? chunkRows(docs), (doc) => documentIdOf.get(doc)!, release);
        await queueForSemanticIndex(tx, documentIds);
        return documentIds.map((documentId) => ({ documentId }));
      }),
    );
  }

  async touchDocument(connectionId: string, ref: DocumentRef, title: string): Promise<void> {
    // The title is part of every chunk's embedding and keyword text; the sync engine rewrites a
    // document whose title changed, so only metadata outside those inputs changes here.
    await this.db.query(
      `UPDATE documents SET title = $3, knowledge_base = $4, url = $5, remote_updated_at = $6, revision = $7
       WHERE connection_id = $1 AND external_id = $2`,
      [
        connectionId,
        ref.externalId,
        title,
        ref.knowledgeBase,
        ref.url,
        timestampOrNull(ref.remoteUpdatedAt),
        ref.revision,
      ],
    );
  }

  async noteListedTimes(
    connectionId: string,
    listed: { externalId: string; listedAt: string }[],
  ): Promise<void> {
    for (let start = 0; start < listed.length; start += ROWS_PER_STATEMENT) {
      const part = listed.slice(start, start + ROWS_PER_STATEMENT);
      await this.db.query(
        `UPDATE documents d SET listed_updated_at = u.listed_at
         FROM unnest($2::text[], $3::timestamptz[]) AS u(external_id, listed_at)
         WHERE d.connection_id = $1 AND d.external_id = u.external_id`,
        [connectionId, part.map((item) => item.externalId), part.map((item) => item.listedAt)],
      );
    }
  }

  async deleteDocuments(connectionId: string, externalIds: string[]): Promise<number> {
    let removed = 0;
    for (let start = 0; start < externalIds.length; start += ROWS_PER_STATEMENT) {
      const result = await this.db.query(
        'DELETE FROM documents WHERE connection_id = $1 AND external_id = ANY($2::text[])',
        [connectionId, externalIds.slice(start, start + ROWS_PER_STATEMENT)],
      );
      removed += result.affectedRows ?? 0;
    }
    return removed;
  }

  async counts(connectionId: string): Promise<{ documents: number; chunks: number }> {
    const rows = await this.db.query<{ documents: number; chunks: number }>(
      'SELECT count(*)::int AS documents, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents WHERE connection_id = $1',
      [connectionId],
    );
    return rows.rows[0] ?? { documents: 0, chunks: 0 };
  }

  /**
   * Called before a sync writes `plannedDocuments` documents: puts the BM25 index in bulk mode for
   * a large burst (keyword-index.ts). Keyword search keeps working meanwhile.
   */
  async prepareBulkWrite(plannedDocuments: number): Promise<void> {
    if (plannedDocuments <= 0 || this.bulkKeywordWrites) return;
    const totals = await this.db.query<{ docs: number; chunks: number }>(
      'SELECT count(*)::int AS docs, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents',
    );
    const { docs = 0, chunks = 0 } = totals.rows[0] ?? {};
    const plannedChunks = Math.ceil(
      plannedDocuments * (docs > 0 ? chunks / docs : DEFAULT_CHUNKS_PER_DOCUMENT),
    );
    if (plannedChunks < BULK_KEYWORD_MIN_CHUNKS) return;
    this.logger.info('keyword index in bulk mode for a large write', { plannedDocuments, plannedChunks });
    await beginBulkKeywordWrites(this.db);
    this.bulkKeywordWrites = true;
  }

  /** Ends the BM25 bulk mode if a sync started it (a cancelled or failed sync ends here too). */
  async endBulkWrite(): Promise<void> {
    if (!this.bulkKeywordWrites) return;
    this.bulkKeywordWrites = false;
    await endBulkKeywordWrites(this.db);
  }

  /** After a sync that wrote: ends the BM25 bulk mode. */
  async optimize(signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    await this.endBulkWrite();
  }
}
