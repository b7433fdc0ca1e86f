/**
 * The contract's `settings` domain. An update is saved by the settings repository, which publishes
 * `settings.changed`: the work a change re-plans (re-embedding, the sync schedule, the reranker) is
 * done by the services that subscribe, before the update returns.
 */
import type { CairnApi } from '@shared/contract';
import type { SettingsPatch, SettingsView } from '@shared/models';
import type { Db } from '../db/database';
import type { Embedder } from '../embedding/embedder';
import { CairnError, toResult } from '../errors';
import type { ModelCatalog } from '../models/catalog';
import { reindexCost } from '../spaces/semantic-index';
import { testChatModel, testEmbeddingModel } from './model-check';
import type { SettingsRepository } from '../settings/settings-repository';

export interface SettingsApiDeps {
  db: Db;
  settings: SettingsRepository;
  /** Builds an installed local model's embedder, for the embedding Test (provider 'local'). */
  localEmbedder?: (model: string) => Embedder;
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
        return deps.settings.update(input);
      }),
    reindexCost: () => toResult(() => reindexCost(deps.db)),
    testChat: (input) => toResult(() => testChatModel(deps.settings, input ?? {}, signal)),
    testEmbedding: (input) =>
      toResult(() => testEmbeddingModel(deps.settings, input ?? {}, signal, deps.localEmbedder)),
  };
}
