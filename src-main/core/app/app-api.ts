/** The contract's `app` and `settings` domains: the status snapshot, link opening, and settings that re-plan work. */
import type { CairnApi } from '@shared/contract';
import type { SettingsPatch, SettingsView, StatusSnapshot } from '@shared/models';
import type { Db } from '../db/database';
import { toResult } from '../errors';
import { reindexCost } from '../index/reindex-job';
import type { ConnectionRepository } from './connection-repository';
import type { EmbeddingService } from './embedding-service';
import { resolveOpenTarget } from './open-external';
import type { SettingsRepository } from './settings-repository';
import type { SyncService } from './sync-service';

export interface AppApiDeps {
  db: Db;
  version: string;
  dataDir: string | null;
  repository: ConnectionRepository;
  settings: SettingsRepository;
  embeddings: EmbeddingService;
  sync: SyncService;
  /** Called after settings changed that affect scheduling. */
  onScheduleSettingsChanged: () => Promise<void>;
}

export function appApi(deps: AppApiDeps): CairnApi['app'] {
  return {
    status: () =>
      toResult(async (): Promise<StatusSnapshot> => ({
        version: deps.version,
        dataDir: deps.dataDir ?? ':memory:',
        connections: await deps.repository.list(),
        settings: await deps.settings.get(),
        reindex: deps.embeddings.status(),
        syncing: deps.sync.snapshot(),
      })),
    // Core decides WHAT may be opened; the shell (Electron's shell, or the OS opener behind the
    // headless host: transport/api-dispatcher.ts withExternalOpener) decides HOW, after this check.
    openExternal: (input) =>
      toResult(async () => {
        const folderRoots = (await deps.repository.list())
          .filter((c) => c.platform === 'folder' && typeof c.config['path'] === 'string')
          .map((c) => String(c.config['path']));
        resolveOpenTarget(String(input?.url ?? ''), folderRoots);
      }),
  };
}

export function settingsApi(deps: AppApiDeps): CairnApi['settings'] {
  return {
    get: () => toResult(() => deps.settings.get()),
    update: (input: SettingsPatch) =>
      toResult(async (): Promise<SettingsView> => {
        const before = await deps.settings.get();
        const after = await deps.settings.update(input);
        // A changed key alone counts too: the same model behind a new key needs no re-embed, but a
        // provider that could not be built before may be buildable now.
        if (
          JSON.stringify(before.embedding) !== JSON.stringify(after.embedding) ||
          input.embedding?.apiKey !== undefined
        )
          await deps.embeddings.reconfigure();
        if (
          before.syncIntervalHours !== after.syncIntervalHours ||
          before.scheduledSyncPaused !== after.scheduledSyncPaused
        )
          await deps.onScheduleSettingsChanged();
        return after;
      }),
    reindexCost: () => toResult(() => reindexCost(deps.db)),
  };
}
