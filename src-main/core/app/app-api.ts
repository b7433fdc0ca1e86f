/** The contract's `app` domain: the status snapshot and the check of links the UI asks to open. */
import type { CairnApi } from '@shared/contract';
import type { StatusSnapshot } from '@shared/models';
import { toResult } from '../errors';
import type { ConnectionRepository } from '../connections/connection-repository';
import type { EmbeddingService } from '../embedding/embedding-service';
import { resolveOpenTarget } from './open-external';
import type { SettingsRepository } from '../settings/settings-repository';
import type { SyncService } from '../sync/sync-service';

export interface AppApiDeps {
  version: string;
  dataDir: string | null;
  repository: ConnectionRepository;
  settings: SettingsRepository;
  embeddings: EmbeddingService;
  sync: SyncService;
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
