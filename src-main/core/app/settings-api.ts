/** The contract's `settings` domain: settings, and the work a change re-plans (re-embedding, the sync schedule). */
import type { CairnApi } from '@shared/contract';
import type { SettingsPatch, SettingsView } from '@shared/models';
import type { Db } from '../db/database';
import type { EmbeddingService } from '../embedding/embedding-service';
import { toResult } from '../errors';
import { reindexCost } from '../index/reindex-job';
import type { SettingsRepository } from '../settings/settings-repository';

export interface SettingsApiDeps {
  db: Db;
  settings: SettingsRepository;
  embeddings: EmbeddingService;
  /** Called after settings changed that affect scheduling. */
  onScheduleSettingsChanged: () => Promise<void>;
}

export function settingsApi(deps: SettingsApiDeps): CairnApi['settings'] {
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
