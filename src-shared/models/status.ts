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
