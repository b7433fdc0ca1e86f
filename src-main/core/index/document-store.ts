/**
 * The seam between the sync engine and the index. The sync engine decides what changed; the
 * store writes each document atomically (one transaction: upsert document, delete its old
 * chunks, insert the new chunks with their vectors) so a crash mid-write leaves the last good state.
 */
import type { Chunk } from '../chunking/chunker';
import type { DocumentRef } from '../connectors/connector';
import type { EmbeddingSpace } from '../embedding/embedder';
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
  /** One vector per chunk, in the given space. */
  vectors: Float32Array[];
  /**
   * Each chunk's keyword text (`keywordInput`), when the embedder produced it with the vectors;
   * the store analyses the chunks itself otherwise.
   */
  searchTexts?: string[];
  space: EmbeddingSpace;
}

export interface DocumentStore {
  /** What the index holds for a connection, keyed by external id. */
  listStates(connectionId: string): Promise<Map<string, StoredDocumentState>>;
  /** Atomic replace of one document and its chunks. Throws if the space is not the active or pending one. */
  writeDocument(doc: DocumentToWrite): Promise<{ documentId: number }>;
  /**
   * Atomic replace of several documents in ONE transaction: all of them land or none does (so each
   * one is still all-or-nothing). Cheaper per document than `writeDocument` (one statement per
   * table for the group); a caller that must not let one bad document fail the others retries
   * them one by one with `writeDocument` when this throws. Results are in input order.
   */
  writeDocuments(docs: DocumentToWrite[]): Promise<{ documentId: number }[]>;
  /** Content unchanged (same hash): refresh metadata only, no re-chunk, no re-embed. */
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
  /**
   * Called by the sync engine after a run that wrote documents: the place to (re)build ANN
   * indexes in bulk, since HNSW inserts one by one are slow (~7 ms each measured here).
   */
  optimize?(signal?: AbortSignal): Promise<void>;
  /**
   * Called by the sync engine once it knows how many documents it will write in `space`, before
   * writing any: the place to drop an ANN index that a large burst would make slow to maintain.
   */
  prepareBulkWrite?(space: EmbeddingSpace, plannedDocuments: number): Promise<void>;
  /**
   * Called by the sync engine when a run ends, however it ends (optimize() may not have run: a
   * cancel, a failure): leaves no write-time setting behind. Cheap and idempotent.
   */
  endBulkWrite?(): Promise<void>;
}
