/** What a sync engine is built with, and what one run of it is asked to do. */
import type { SyncProgress } from '@shared/models';
import type { Chunk } from '../chunking/chunker';
import type { Connector } from '../connectors/connector';
import type { Db } from '../db/database';
import { databaseHealth, type DatabaseHealth } from '../db/database-health';
import type { DocumentStore } from '../index/document-store';
import type { Logger } from '../logging/logger';
import type { DocumentJournal } from './crash-journal';
import type { HeapBudget } from './heap-budget';
import type { SyncLock } from './sync-lock';

export interface SyncEngineOptions {
  db: Db;
  store: DocumentStore;
  lock: SyncLock;
  logger?: Logger;
  /** @default chunkMarkdown */
  chunk?: (markdown: string) => Chunk[];
  /** Documents in flight (fetch, then analyse). Platform caps still apply inside each connector. @default 16 */
  fetchConcurrency?: number;
  /** Documents written per transaction (group commit; a failed group is retried one by one). @default 32 */
  writeBatchDocuments?: number;
  /** Documents to fetch from which keyword analysis runs in a worker thread (keyword-analysis.ts). @default 250 */
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
  /** Keeps each run's JS heap near what is live (heap-budget.ts); one per run. @default new HeapBudget() */
  heapBudget?: () => HeapBudget;
}

export type SpaceCheck = Pick<DatabaseHealth, 'ensureSpace'>;

/** What says whether Cairn's writes still fit on the volume (disk-space.ts). */
export function spaceCheck(options: SyncEngineOptions): SpaceCheck {
  return options.health ?? databaseHealth(options.db);
}

export interface SyncRequest {
  connectionId: string;
  connector: Connector;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}
