import type { Result } from '@shared/errors';
import type {
  CoreMessage,
  ReindexStatus,
  SecretStorageView,
  SettingsPatch,
  SettingsView,
} from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';

export interface SettingsSlice {
  settings: SettingsView | null;
  reindex: ReindexStatus | null;
  version: string;
  dataDir: string;
  /** Where credentials are kept: the forms say "stored encrypted" only for the keychain. */
  secretStorage: SecretStorageView;
  saveSettings(patch: SettingsPatch): Promise<boolean>;
  loadReindexCost(): Promise<{ documents: number; chunks: number } | null>;
  /** Settings' Test buttons: the form's values, nothing saved; the outcome stays beside the button. */
  testChatModel(draft: NonNullable<SettingsPatch['chat']>): Promise<Result<CoreMessage>>;
  testEmbeddingModel(draft: NonNullable<SettingsPatch['embedding']>): Promise<Result<CoreMessage>>;
}

export function createSettingsSlice(set: SetState, get: GetState, { api }: StoreDeps): SettingsSlice {
  return {
    settings: null,
    reindex: null,
    version: '',
    dataDir: '',
    secretStorage: { kind: 'memory', path: null },
    async saveSettings(patch) {
      const result = await api.settings.update(patch);
      if (result.ok) set({ settings: result.value });
      else get().showError(result.error);
      return result.ok;
    },
    async loadReindexCost() {
      const result = await api.settings.reindexCost();
      return result.ok ? result.value : null;
    },
    testChatModel: (draft) => api.settings.testChat(draft),
    testEmbeddingModel: (draft) => api.settings.testEmbedding(draft),
  };
}
