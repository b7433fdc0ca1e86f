/** The contract's `app` domain: the status snapshot and the check of links the UI asks to open. */
import type { CairnApi } from '@shared/contract';
import type { SecretStorageView, StatusSnapshot } from '@shared/models';
import { CairnError, toResult } from '../errors';
import { expandHome } from '../connectors/folder/home-path';
import type { ConnectionRepository } from '../connections/connection-repository';
import type { EmbeddingService } from '../spaces/embedding-service';
import { checkOpenTarget } from './open-external';
import { measureDataDir } from './data-dir-size';
import type { SettingsRepository } from '../settings/settings-repository';
import type { SyncService } from '../sync/sync-service';

export interface AppApiDeps {
  version: string;
  dataDir: string | null;
  secretStorage: SecretStorageView;
  repository: ConnectionRepository;
  settings: SettingsRepository;
  embeddings: EmbeddingService;
  sync: SyncService;
  /** The shell's native folder picker (Electron); absent in the browser host. */
  pickFolder?: () => Promise<string | null>;
}

export function appApi(deps: AppApiDeps): CairnApi['app'] {
  return {
    status: () =>
      toResult(async (): Promise<StatusSnapshot> => ({
        version: deps.version,
        dataDir: deps.dataDir ?? ':memory:',
        secretStorage: deps.secretStorage,
        connections: await deps.repository.list(),
        settings: await deps.settings.get(),
        reindex: deps.embeddings.status(),
        syncing: deps.sync.snapshot(),
        storage: deps.dataDir ? await measureDataDir(deps.dataDir) : null,
      })),
    // Core decides WHAT may be opened; the shell (Electron's shell, or the OS opener behind the
    // headless host: transport/api-dispatcher.ts withExternalOpener) decides HOW, after this check.
    openExternal: (input) =>
      toResult(async () => {
        const folders = (await deps.repository.list()).filter(
          (c) => c.platform === 'folder' && typeof c.config['path'] === 'string',
        );
        const folderRoots = folders.map((c) => expandHome(String(c.config['path'])));
        const vaults = folders.flatMap((c) => (c.folder?.obsidianVault ? [c.folder.obsidianVault] : []));
        const target = await checkOpenTarget(String(input?.url ?? ''), folderRoots, vaults);
        if (input?.reveal && target.kind !== 'path')
          throw new CairnError(
            'INVALID_ARGUMENT',
            'Only a file of a local folder can be shown in its folder.',
          );
      }),
    pickFolder: () =>
      toResult(async () => {
        if (!deps.pickFolder)
          throw new CairnError(
            'UNSUPPORTED',
            'The browser cannot show a folder picker: type the folder path.',
          );
        return { path: await deps.pickFolder() };
      }),
    // A Cairn that answers opened its database: recovery is offered only by the one that refused it
    // (recoverable-cairn.ts).
    recover: () =>
      toResult(async () => {
        throw new CairnError(
          'INVALID_ARGUMENT',
          `The database${deps.dataDir ? ` in ${deps.dataDir}` : ''} opens: there is nothing to recover.`,
        );
      }),
  };
}
