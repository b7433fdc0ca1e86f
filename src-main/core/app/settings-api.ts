/** The contract's `settings` domain: settings, and the work a change re-plans (re-embedding, the sync schedule). */
import type { CairnApi } from '@shared/contract';
import type { SettingsPatch, SettingsView } from '@shared/models';
import type { Db } from '../db/database';
import type { Embedder } from '../embedding/embedder';
import type { EmbeddingService } from '../spaces/embedding-service';
import { CairnError, toResult } from '../errors';
import type { ModelCatalog } from '../models/catalog';
import { reindexCost } from '../spaces/reindex-job';
import { testChatModel, testEmbeddingModel } from './model-check';
import type { SettingsRepository } from '../settings/settings-repository';

export interface SettingsApiDeps {
  db: Db;
  settings: SettingsRepository;
  embeddings: EmbeddingService;
  /** Builds an installed local model's embedder, for the embedding Test (provider 'local'). */
  localEmbedder?: (model: string) => Embedder;
  /** Called after settings changed that affect scheduling. */
  onScheduleSettingsChanged: () => Promise<void>;
  /** Called after every successful update (reranker settings are read on every search). */
  afterUpdate?: (settings: SettingsView) => void;
  /** Checks a local embedding model before the settings name it. */
  localModels?: { catalog: ModelCatalog; installed(id: string): boolean };
}

export function settingsApi(deps: SettingsApiDeps, signal?: AbortSignal): CairnApi['settings'] {
  return {
    get: () => toResult(() => deps.settings.get()),
    update: (input: SettingsPatch) =>
      toResult(async (): Promise<SettingsView> => {
        const before = await deps.settings.get();
        const model = input?.embedding?.model ?? before.embedding.model;
        if ((input?.embedding?.provider ?? before.embedding.provider) === 'local' && deps.localModels) {
          const entry = deps.localModels.catalog.embedder(model);
          if (!deps.localModels.installed(entry.id))
            throw new CairnError('MODEL_NOT_FOUND', `${entry.name} is not installed yet: download it first.`);
          // The catalogue decides a local model's width, whatever the form sent.
          input = { ...input, embedding: { ...input.embedding, dimensions: entry.dimensions } };
        }
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
        deps.afterUpdate?.(after);
        return after;
      }),
    reindexCost: () => toResult(() => reindexCost(deps.db)),
    testChat: (input) => toResult(() => testChatModel(deps.settings, input ?? {}, signal)),
    testEmbedding: (input) =>
      toResult(() => testEmbeddingModel(deps.settings, input ?? {}, signal, deps.localEmbedder)),
  };
}
