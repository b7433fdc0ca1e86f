import type { Result } from '@shared/errors';
import type {
  CoreMessage,
  DataDirStorage,
  ReindexStatus,
  SecretStorageView,
  SettingsPatch,
  SettingsView,
} from '@shared/models';
import {
  sectionPatch,
  unsavedSections,
  type SectionDrafts,
  type SettingsEdits,
  type SettingsSection,
} from '../settings-draft';
import type { GetState, SetState, StoreDeps } from '../store-types';

export interface SettingsSlice {
  settings: SettingsView | null;
  reindex: ReindexStatus | null;
  version: string;
  dataDir: string;
  /** The data directory's size on disk and the room left on its volume (Settings). */
  storage: DataDirStorage | null;
  /** Measures the data directory again (Settings shows it current when opened). */
  refreshStorage(): Promise<void>;
  /** Where credentials are kept: the forms say "stored encrypted" only for the keychain. */
  secretStorage: SecretStorageView;
  saveSettings(patch: SettingsPatch): Promise<boolean>;
  /** Settings sections changed in their forms and not saved yet (settings-draft.ts). */
  settingsEdits: SettingsEdits;
  editSettings<S extends SettingsSection>(section: S, draft: SectionDrafts[S]): void;
  /** Saves one section's changes (only what differs); true when nothing is left unsaved there. */
  saveSettingsSection(section: SettingsSection): Promise<boolean>;
  /** Saves every section with changes; true when all were saved. */
  saveAllSettings(): Promise<boolean>;
  discardSettingsEdits(): void;
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
    storage: null,
    async refreshStorage() {
      const status = await api.app.status();
      if (status.ok) set({ storage: status.value.storage });
    },
    secretStorage: { kind: 'memory', path: null },
    async saveSettings(patch) {
      const result = await api.settings.update(patch);
      if (result.ok) set({ settings: result.value });
      else get().showError(result.error);
      return result.ok;
    },
    settingsEdits: {},
    editSettings(section, draft) {
      set((state) => ({ settingsEdits: { ...state.settingsEdits, [section]: draft } }));
    },
    async saveSettingsSection(section) {
      const { settings, settingsEdits } = get();
      const patch = settings ? sectionPatch(settings, settingsEdits, section) : null;
      if (patch && !(await get().saveSettings(patch))) return false;
      set((state) => {
        const { [section]: _saved, ...rest } = state.settingsEdits;
        return { settingsEdits: rest };
      });
      if (patch) get().showNotice('info', 'settings.saved');
      return true;
    },
    async saveAllSettings() {
      const { settings, settingsEdits } = get();
      for (const section of unsavedSections(settings, settingsEdits))
        if (!(await get().saveSettingsSection(section))) return false;
      return true;
    },
    discardSettingsEdits() {
      set({ settingsEdits: {} });
    },
    async loadReindexCost() {
      const result = await api.settings.reindexCost();
      return result.ok ? result.value : null;
    },
    testChatModel: (draft) => api.settings.testChat(draft),
    testEmbeddingModel: (draft) => api.settings.testEmbedding(draft),
  };
}
