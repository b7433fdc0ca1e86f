import type { AppErrorData } from '@shared/errors';
import type { Platform } from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';

export type View = 'connections' | 'search' | 'chat' | 'settings';
export type Language = 'en' | 'zh';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  /** An error from core: shown with ErrorMessage (headline in the UI language, core's sentence beneath). */
  error?: AppErrorData;
}

export interface UiSlice {
  view: View;
  /** The language the OS asked for; the settings may override it. */
  systemLanguage: Language;
  phase: 'loading' | 'ready' | 'failed';
  loadError: AppErrorData | null;
  notice: Notice | null;
  /** `path`: a folder dropped on the Connections view or picked before the form opened. */
  addForm: { open: boolean; platform: Platform; path?: string };
  /** Bumped by Ctrl/Cmd+K; the search box focuses itself when it changes. */
  searchFocusRequest: number;
  setView(view: View): void;
  showNotice(kind: Notice['kind'], text: string): void;
  /** Shows core's error; a CANCELLED one is not a failure and shows nothing (STYLE.md §6). */
  showError(error: AppErrorData): void;
  dismissNotice(): void;
  openAddForm(platform?: Platform, path?: string): void;
  closeAddForm(): void;
  requestSearchFocus(): void;
  /** Core checks the link (http(s), or a file inside a folder connection); the shell opens it. */
  /** `page`: a PDF opens at that page where the viewer supports it. */
  openExternal(url: string, page?: number): Promise<void>;
  setLanguage(language: 'system' | Language): Promise<void>;
}

let noticeIds = 0;

/** Maps a BCP 47 tag (navigator.language) to one of the UI languages. */
export function languageFromTag(tag: string | undefined): Language {
  return tag?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function createUiSlice(
  systemLanguage: Language,
  set: SetState,
  get: GetState,
  { api }: StoreDeps,
): UiSlice {
  return {
    view: 'connections',
    systemLanguage,
    phase: 'loading',
    loadError: null,
    notice: null,
    addForm: { open: false, platform: 'folder' },
    searchFocusRequest: 0,
    setView: (view) => set({ view }),
    showNotice: (kind, text) => set({ notice: { id: ++noticeIds, kind, text } }),
    showError: (error) => {
      if (error.code !== 'CANCELLED')
        set({ notice: { id: ++noticeIds, kind: 'error', text: error.message, error } });
    },
    dismissNotice: () => set({ notice: null }),
    openAddForm: (platform = 'folder', path) =>
      set({ addForm: { open: true, platform, ...(path ? { path } : {}) }, view: 'connections' }),
    closeAddForm: () => set((state) => ({ addForm: { ...state.addForm, open: false } })),
    requestSearchFocus: () =>
      set((state) => ({ view: 'search', searchFocusRequest: state.searchFocusRequest + 1 })),
    async openExternal(url, page) {
      const result = await api.app.openExternal(page ? { url, page } : { url });
      if (!result.ok) get().showError(result.error);
    },
    async setLanguage(language) {
      await get().saveSettings({ language });
    },
  };
}
