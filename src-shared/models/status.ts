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
