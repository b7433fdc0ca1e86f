/**
 * Reads one indexed document back with its chunks' offsets: the in-app preview shows it (offline,
 * the passage marked by its offsets) and MCP's fetch returns it. The index's copy is what was
 * chunked and searched, so a citation's offsets always point into exactly this text.
 */
import type {
  DocumentMetadataView,
  DocumentPage,
  DocumentSummary,
  DocumentView,
  Platform,
} from '@shared/models';
import type { Db } from '../db/database';
import { CairnError } from '../errors';

interface DocumentRow {
  id: number;
  connection_id: string;
  external_id: string;
  title: string;
  platform: Platform;
  knowledge_base: string;
  url: string | null;
  remote_updated_at: Date | null;
  indexed_at: Date;
  content: string;
  metadata: DocumentMetadataView | null;
}

type SummaryRow = Omit<DocumentRow, 'content'> & { chunk_count: number };

interface ChunkRow {
  id: number;
  ord: number;
  heading_path: string;
  char_start: number;
  char_end: number;
}

export class DocumentReader {
  constructor(private readonly db: Db) {}

  /** Records that the user opened the document (the semantic index embeds recently opened documents first). */
  async markOpened(documentId: number): Promise<void> {
    await this.db.query('UPDATE documents SET opened_at = now() WHERE id = $1', [documentId]);
  }

  async get(documentId: number): Promise<DocumentView> {
    const found = await this.db.query<DocumentRow>(
      `SELECT d.id, d.connection_id, d.external_id, d.title, c.platform, d.knowledge_base, d.url,
              d.remote_updated_at, d.indexed_at, d.content, d.metadata
         FROM documents d JOIN connections c ON c.id = d.connection_id
        WHERE d.id = $1`,
      [documentId],
    );
    const row = found.rows[0];
    if (!row) throw new CairnError('NOT_FOUND', `Document ${documentId} is not in the index.`);
    const chunks = await this.db.query<ChunkRow>(
      'SELECT id, ord, heading_path, char_start, char_end FROM chunks WHERE document_id = $1 ORDER BY ord',
      [documentId],
    );
    return {
      id: Number(row.id),
      connectionId: row.connection_id,
      externalId: row.external_id,
      title: row.title,
      platform: row.platform,
      knowledgeBase: row.knowledge_base,
      url: row.url,
      updatedAt: row.remote_updated_at ? new Date(row.remote_updated_at).toISOString() : null,
      indexedAt: new Date(row.indexed_at).toISOString(),
      markdown: row.content,
      metadata: row.metadata ?? {},
      chunks: chunks.rows.map((chunk) => ({
        id: Number(chunk.id),
        ord: chunk.ord,
        headingPath: chunk.heading_path,
        charStart: chunk.char_start,
        charEnd: chunk.char_end,
      })),
    };
  }

  /** A page of documents in a stable order (connection, then the source's own id: documents are written concurrently, so row ids follow no order a reader would expect), so paging never skips or repeats one. */
  async list(input: { connectionId?: string; offset?: number; limit?: number }): Promise<DocumentPage> {
    const where = input.connectionId === undefined ? '' : 'WHERE d.connection_id = $1';
    const params: unknown[] = input.connectionId === undefined ? [] : [input.connectionId];
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents d ${where}`,
      params,
    );
    const limit = Math.min(Math.max(Math.trunc(input.limit ?? 100), 1), 1_000);
    const offset = Math.max(Math.trunc(input.offset ?? 0), 0);
    const rows = await this.db.query<SummaryRow>(
      `SELECT d.id, d.connection_id, d.external_id, d.title, c.platform, d.knowledge_base, d.url,
              d.remote_updated_at, d.indexed_at, d.chunk_count, d.metadata
         FROM documents d JOIN connections c ON c.id = d.connection_id
         ${where}
        ORDER BY d.connection_id, d.external_id, d.id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { documents: rows.rows.map(toSummary), total: total.rows[0]?.n ?? 0 };
  }
}

function toSummary(row: SummaryRow): DocumentSummary {
  return {
    id: Number(row.id),
    connectionId: row.connection_id,
    externalId: row.external_id,
    title: row.title,
    platform: row.platform,
    knowledgeBase: row.knowledge_base,
    url: row.url,
    updatedAt: row.remote_updated_at ? new Date(row.remote_updated_at).toISOString() : null,
    indexedAt: new Date(row.indexed_at).toISOString(),
    chunkCount: Number(row.chunk_count),
    metadata: row.metadata ?? {},
  };
}
