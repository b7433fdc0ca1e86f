/**
 * Settings being edited, one section at a time: what each section's form shows (the saved values
 * until the user changes something), what it would save, and which sections hold changes not yet
 * saved. Each section saves on its own, and the view does not change while one is unsaved
 * (ui-slice `navigate`), so a model set up and tested is never lost by leaving the page.
 */
import type {
  ChatProviderKind,
  EmbeddingProviderKind,
  EmbeddingSettingsView,
  ModelSourceKind,
  SettingsPatch,
  SettingsView,
} from '@shared/models';

export const SETTINGS_SECTIONS = ['embedding', 'chat', 'sync', 'models'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export interface EmbeddingDraft {
  provider: EmbeddingProviderKind;
  baseUrl: string;
  model: string;
  dimensions: number;
  /** Typed in; '' keeps the stored key. */
  apiKey: string;
}

export interface ChatDraft {
  provider: ChatProviderKind;
  baseUrl: string;
  model: string;
  topK: number;
  /** Typed in; '' keeps the stored key. */
  apiKey: string;
}

export interface SyncDraft {
  syncIntervalHours: number;
  scheduledSyncPaused: boolean;
}

export interface ModelSourceDraft {
  source: ModelSourceKind;
  mirrorUrl: string;
}

export interface SectionDrafts {
  embedding: EmbeddingDraft;
  chat: ChatDraft;
  sync: SyncDraft;
  models: ModelSourceDraft;
}

/** The sections the user changed (a section absent shows the saved settings). */
export type SettingsEdits = Partial<SectionDrafts>;

/** The mirror offered when none is saved. */
export const DEFAULT_MIRROR = 'https://hf-mirror.com';

/** What a section's form starts from: the saved settings, secrets as empty fields. */
export function savedDraft<S extends SettingsSection>(saved: SettingsView, section: S): SectionDrafts[S] {
  const drafts: SectionDrafts = {
    embedding: {
      provider: saved.embedding.provider,
      baseUrl: saved.embedding.baseUrl,
      model: saved.embedding.model,
      dimensions: saved.embedding.dimensions,
      apiKey: '',
    },
    chat: {
      provider: saved.chat.provider,
      baseUrl: saved.chat.baseUrl,
      model: saved.chat.model,
      topK: saved.chat.topK,
      apiKey: '',
    },
    sync: {
      syncIntervalHours: saved.syncIntervalHours,
      scheduledSyncPaused: saved.scheduledSyncPaused,
    },
    models: { source: saved.models.source, mirrorUrl: saved.models.mirrorUrl || DEFAULT_MIRROR },
  };
  return drafts[section];
}

/** What the section's form shows now. */
export function sectionDraft<S extends SettingsSection>(
  saved: SettingsView,
  edits: SettingsEdits,
  section: S,
): SectionDrafts[S] {
  return (edits[section] as SectionDrafts[S] | undefined) ?? savedDraft(saved, section);
}

/** Whether the embedding space would change (a re-index), as opposed to only its address or key. */
export function embeddingChanged(saved: EmbeddingSettingsView, draft: EmbeddingDraft): boolean {
  return (
    saved.provider !== draft.provider || saved.model !== draft.model || saved.dimensions !== draft.dimensions
  );
}

/** What saving the section sends: only what differs from the saved settings; null when nothing does. */
export function sectionPatch(
  saved: SettingsView,
  edits: SettingsEdits,
  section: SettingsSection,
): SettingsPatch | null {
  if (section === 'embedding') {
    const draft = edits.embedding;
    if (!draft) return null;
    const { apiKey, ...embedding } = draft;
    const changed =
      embeddingChanged(saved.embedding, draft) || embedding.baseUrl !== saved.embedding.baseUrl || !!apiKey;
    return changed ? { embedding: { ...embedding, ...(apiKey ? { apiKey } : {}) } } : null;
  }
  if (section === 'chat') {
    const draft = edits.chat;
    if (!draft) return null;
    const { apiKey, ...chat } = draft;
    const changed =
      chat.provider !== saved.chat.provider ||
      chat.baseUrl !== saved.chat.baseUrl ||
      chat.model !== saved.chat.model ||
      chat.topK !== saved.chat.topK ||
      !!apiKey;
    return changed ? { chat: { ...chat, ...(apiKey ? { apiKey } : {}) } } : null;
  }
  if (section === 'sync') {
    const draft = edits.sync;
    if (!draft) return null;
    const patch: SettingsPatch = {};
    if (draft.syncIntervalHours !== saved.syncIntervalHours)
      patch.syncIntervalHours = draft.syncIntervalHours;
    if (draft.scheduledSyncPaused !== saved.scheduledSyncPaused)
      patch.scheduledSyncPaused = draft.scheduledSyncPaused;
    return Object.keys(patch).length > 0 ? patch : null;
  }
  const draft = edits.models;
  if (!draft) return null;
  const changed =
    draft.source !== saved.models.source ||
    (draft.source === 'mirror' && draft.mirrorUrl !== saved.models.mirrorUrl);
  return changed
    ? {
        models: {
          source: draft.source,
          ...(draft.source === 'mirror' ? { mirrorUrl: draft.mirrorUrl } : {}),
        },
      }
    : null;
}

/** The sections whose changes are not saved, in the order Settings shows them. */
export function unsavedSections(saved: SettingsView | null, edits: SettingsEdits): SettingsSection[] {
  if (!saved) return [];
  return SETTINGS_SECTIONS.filter((section) => sectionPatch(saved, edits, section) !== null);
}
