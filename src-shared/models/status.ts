/** What `app.status` returns: the snapshot the renderer starts from before applying pushed events. */
import type { ConnectionView } from './connections';
import type { ReindexStatus, SecretStorageView, SettingsView } from './settings';
import type { SyncProgress } from './sync';

export interface StatusSnapshot {
  version: string;
  dataDir: string;
  secretStorage: SecretStorageView;
  connections: ConnectionView[];
  settings: SettingsView;
  reindex: ReindexStatus;
  /** Running syncs' latest progress, keyed by connection id. */
  syncing: Record<string, SyncProgress>;
  /** The data directory's size on disk; null for an in-memory Cairn (tests). */
  storage: DataDirStorage | null;
}

export interface DataDirStorage {
  /** Everything in the data directory (index, its log, models, logs), as the disk counts it. */
  totalBytes: number;
  /** Of which the database (the index and the connections). */
  databaseBytes: number;
  /** Free on its volume; null when the volume cannot say. */
  freeBytes: number | null;
  /** The volume's mount point, e.g. "/home". */
  volume: string;
}

/**
 * How to go on from a database Cairn refused to open (DATA_DIR_DAMAGED): `rebuild` restores the
 * connections from the manifest and syncs them again; `fresh` starts empty. Both keep the damaged
 * folder, moved aside.
 */
export type RecoveryAction = 'rebuild' | 'fresh';

export interface RecoveryReport {
  action: RecoveryAction;
  /** Where the damaged database (and a copy of the manifest) now is. */
  movedTo: string;
  /** Connections restored from the manifest (0 for `fresh`). */
  connections: number;
}
