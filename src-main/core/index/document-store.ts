/**
 * The seam between the sync engine and the index. The sync engine decides what changed; the
 * store writes each document atomically (one transaction: upsert document, delete its old
 * chunks and their vectors, insert the new chunks with their keyword text) so a crash mid-write
 * leaves the last good state. Vectors are not the sync's: the semantic index embeds the written
 * documents in the background (spaces/semantic-index.ts), the store only queues them.
 */
import type { Chunk } from '../chunking/chunker';
import type { DocumentRef } from '../connectors/connector';
import type { DocumentMetadata } from '../text/clean-markdown';

export interface StoredDocumentState {
  id: number;
  externalId: string;
  title: string;
  knowledgeBase: string;
  url: string | null;
  revision: string | null;
  remoteUpdatedAt: string | null;
  contentHash: string;
  chunkCount: number;
  /** The ANALYSIS_VERSION the document's rows were written under (0: before versions existed). */
  analysisVersion: number;
}

export interface DocumentToWrite {
  connectionId: string;
  ref: DocumentRef;
  /** Title after fetching (may improve on the listed one). */
  title: string;
  /** SHA-256 hex of the normalised text. */
  contentHash: string;
  /** The cleaned Markdown the chunk offsets point into (clean-markdown.ts). */
  content: string;
  /** Front matter metadata (aliases, tags, summary); searchable via the first chunk. @default {} */
  metadata?: DocumentMetadata;
  chunks: Chunk[];
  /**
   * Each chunk's keyword text (analysed off this thread for a large sync: sync/keyword-analysis.ts);
   * the store analyses the chunks itself otherwise.
   */
  searchTexts?: string[];
}

export interface DocumentStore {
  /** What the index holds for a connection, keyed by external id. */
  listStates(connectionId: string): Promise<Map<string, StoredDocumentState>>;
  /** Atomic replace of one document and its chunks (queued for the semantic index when there is one). */
  writeDocument(doc: DocumentToWrite): Promise<{ documentId: number }>;
  /**
   * Atomic replace of several documents in ONE transaction: all of them land or none does (so each
   * one is still all-or-nothing). Cheaper per document than `writeDocument` (one statement per
   * table for the group); a caller that must not let one bad document fail the others retries
   * them one by one with `writeDocument` when this throws. Results are in input order.
   */
  writeDocuments(docs: DocumentToWrite[]): Promise<{ documentId: number }[]>;
  /** Content unchanged (same hash): refresh metadata only, no re-chunk, no re-analysis. */
  touchDocument(connectionId: string, ref: DocumentRef, title: string): Promise<void>;
  /**
   * Records the modified times a listing reported that are newer than the indexed copies' (the
   * documents about to be fetched): if a fetch then fails or is deferred, search results say the
   * source changed since (search/freshness.ts). A successful write supersedes it.
   */
  noteListedTimes?(connectionId: string, listed: { externalId: string; listedAt: string }[]): Promise<void>;
  /** Removes documents gone upstream, with their chunks and vectors. Returns how many were removed. */
  deleteDocuments(connectionId: string, externalIds: string[]): Promise<number>;
  counts(connectionId: string): Promise<{ documents: number; chunks: number }>;
  /** Called by the sync engine after a run that wrote documents: index maintenance after a burst. */
  optimize?(signal?: AbortSignal): Promise<void>;
  /**
   * Called by the sync engine once it knows how many documents it will write, before writing any:
   * the place to set the keyword index up for a large burst.
   */
  prepareBulkWrite?(plannedDocuments: number): Promise<void>;
  /**
   * Called by the sync engine when a run ends, however it ends (optimize() may not have run: a
   * cancel, a failure): leaves no write-time setting behind. Cheap and idempotent.
   */
  endBulkWrite?(): Promise<void>;
}
