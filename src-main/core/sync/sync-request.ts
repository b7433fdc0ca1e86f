/** What a sync engine is built with, and what one run of it is asked to do. */
import type { SyncProgress } from '@shared/models';
import type { Chunk } from '../chunking/chunker';
import type { Connector } from '../connectors/connector';
import type { Db } from '../db/database';
import { databaseHealth, type DatabaseHealth } from '../db/database-health';
import type { Embedder } from '../embedding/embedder';
import type { DocumentStore } from '../index/document-store';
import type { Logger } from '../logging/logger';
import type { DocumentJournal } from './crash-journal';
import type { SyncLock } from './sync-lock';

export interface SyncEngineOptions {
  db: Db;
  store: DocumentStore;
  lock: SyncLock;
  logger?: Logger;
  /** @default chunkMarkdown */
  chunk?: (markdown: string) => Chunk[];
  /**
   * Documents in flight (fetch, then embed). Platform caps still apply inside each connector; a
   * remote embedder needs many documents in flight to fill its batches (bench: 48 chunks/s at 4,
   * 169 at 32 against a 100 ms endpoint). @default 16
   */
  fetchConcurrency?: number;
  /** Inputs per embedder call. @default 64 */
  embedBatchSize?: number;
  /** Documents written per transaction (group commit; a failed group is retried one by one). @default 32 */
  writeBatchDocuments?: number;
  /** Documents to fetch from which an in-process embedder runs in a worker thread (offload-embedder.ts). @default 250 */
  workerMinDocuments?: number;
  /**
   * Applied to every error message the run records: platforms may quote a credential back, and
   * run records reach the UI. @default keeps messages as they are
   */
  redact?: (text: string) => string;
  /** Free space and the database's state (tests). @default databaseHealth(db) */
  health?: SpaceCheck;
  /**
   * Records which documents are in hand, so one that kills the process is read alone next time,
   * then quarantined (crash-journal.ts). @default none (an in-memory index has no next start)
   */
  journal?: DocumentJournal;
}

export type SpaceCheck = Pick<DatabaseHealth, 'ensureSpace'>;

/** What says whether Cairn's writes still fit on the volume (disk-space.ts). */
export function spaceCheck(options: SyncEngineOptions): SpaceCheck {
  return options.health ?? databaseHealth(options.db);
}

export interface SyncRequest {
  connectionId: string;
  connector: Connector;
  /** The embedder of the index's active space. */
  embedder: Embedder;
  /**
   * The active space's embedder NOW. A re-embed can flip the active space while this sync runs and
   * retire the space `embedder` writes into: a write refused after a flip is embedded again with
   * this and written into the new space, and later documents use it directly. @default none: such writes fail
   */
  currentEmbedder?: () => Promise<Embedder>;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}
