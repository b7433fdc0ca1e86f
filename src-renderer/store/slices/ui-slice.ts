import type { AppErrorData, Result } from '@shared/errors';
import type {
  ChunkLocation,
  CoreMessage,
  Platform,
  RecoveryAction,
  RecoveryReport,
  SyncRunView,
} from '@shared/models';
import { translate, type Language, type MessageKey } from '../../i18n/i18n';
import { selectLanguage } from '../selectors';
import { unsavedSections } from '../settings-draft';
import { storedTheme, storeTheme, type ThemeChoice } from '../../theme';
import { storedLayout, storeLayout, type LayoutPrefs } from '../../layout-prefs';
import type { AppState, GetState, SetState, StoreDeps } from '../store-types';

export type View = 'connections' | 'search' | 'chat' | 'settings';

/** A sentence of the UI's own, kept as its key so it reads in the language shown now, not the one it was raised in. */
export interface NoticeMessage {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  /** The notice in the language it was raised in (for logs and tests); the toast renders `message`, `error` or `success`. */
  text: string;
  /** The UI's own sentence: the toast translates it on every render, so a language switch re-words it. */
  message?: NoticeMessage;
  /** What an error notice is about, said before its headline (e.g. "Syncing “notes” failed"). */
  lead?: NoticeMessage;
  /** An error from core: shown with ErrorMessage (headline in the UI language, core's sentence beneath). */
  error?: AppErrorData;
  /** A success from core: shown with SuccessMessage, in the UI language the same way. */
  success?: CoreMessage;
  /**
   * What the warning is about: a connection's id, or HOST_CAUSE. It goes away by itself when that
   * cause clears (a later sync succeeds, the connection is fixed or removed, the host is back):
   * see apply-event.ts `clearResolvedNotice`.
   */
  cause?: string;
}

/** A change of view and what goes with it (the add form opened, the search box focused). */
export type ViewChange = Partial<Pick<AppState, 'addForm' | 'searchFocusRequest'>> & { view: View };

/** A notice about the connection to Cairn itself (the browser host's event stream or status). */
export const HOST_CAUSE = 'host';

export interface UiSlice {
  view: View;
  /** Which shell shows the UI (StoreDeps.host). */
  host: 'desktop' | 'browser';
  /** The language the OS asked for; the settings may override it. */
  systemLanguage: Language;
  phase: 'loading' | 'ready' | 'failed';
  loadError: AppErrorData | null;
  /** After a DATA_DIR_DAMAGED start: moves the damaged database aside and opens a new one. */
  recoverDatabase(action: RecoveryAction): Promise<Result<RecoveryReport>>;
  notice: Notice | null;
  /** `path`: a folder dropped on the Connections view or picked before the form opened. */
  addForm: { open: boolean; platform: Platform; path?: string };
  /** system follows prefers-color-scheme (App applies it to <html data-theme>). */
  theme: ThemeChoice;
  setTheme(theme: ThemeChoice): void;
  /** What a narrow window folds away (the sidebar to its icons, the Ask page's conversations), remembered. */
  layout: LayoutPrefs;
  setLayout(key: keyof LayoutPrefs, value: boolean): void;
  /** Bumped by Ctrl/Cmd+K; the search box focuses itself when it changes. */
  searchFocusRequest: number;
  setView(view: View): void;
  /**
   * A change of view that waits while Settings holds unsaved changes: Settings then asks to save
   * or discard them (`resolveLeave`), and the change happens after that, or not at all.
   */
  leaveRequest: ViewChange | null;
  resolveLeave(choice: 'save' | 'discard' | 'stay'): Promise<void>;
  /** A notice in the UI's own words, re-worded when the language changes. */
  showNotice(kind: Notice['kind'], key: MessageKey, params?: Record<string, string | number>): void;
  showSuccess(success: CoreMessage): void;
  /**
   * Browser host: a sync that ended (done or failed; a stop is the user's own doing) is announced
   * with a system notification when the page is in the background and the user allowed them,
   * otherwise with a toast. Electron's shell notifies by itself, so the desktop UI stays quiet.
   */
  announceSyncFinished(run: SyncRunView): void;
  /**
   * Shows core's error; a CANCELLED one is not a failure and shows nothing (STYLE.md §6). `cause`:
   * what it is about (a connection id), so it clears when that is fixed.
   */
  showError(error: AppErrorData, cause?: string): void;
  dismissNotice(): void;
  openAddForm(platform?: Platform, path?: string): void;
  closeAddForm(): void;
  requestSearchFocus(): void;
  /** Core checks the link (http(s), or a file inside a folder connection); the shell opens it. */
  /** `page`: a PDF opens at that page where the viewer supports it. */
  openExternal(url: string, page?: number): Promise<void>;
  /**
   * A link inside a document or an answer: in the browser UI a web link opens in a new tab of this
   * browser (the host machine's opener may be another machine's, or none); desktop, core checks it
   * and the OS opens it.
   */
  openLink(url: string): Promise<void>;
  /**
   * "Open original", which always does something the user sees: desktop, the OS opens the link or
   * file (a PDF at the passage's page); browser host, a web link opens in a new tab and a local file
   * in the preview.
   */
  openOriginal(original: OriginalRef): Promise<void>;
  /** Desktop "Show in folder": the system's file manager shows a folder file (core checks it first). */
  revealFile(url: string): Promise<void>;
  setLanguage(language: 'system' | Language): Promise<void>;
}

/** What "Open original" needs to know about a document. */
export interface OriginalRef {
  url: string | null;
  /** The indexed document, when there is one (a live hit has none). */
  documentId: number | null;
  title: string;
  passage?: { charStart: number; charEnd: number } | null;
  terms?: string[];
  /** The passage's place in the file: a PDF opens at its page (desktop). */
  location?: ChunkLocation | null;
  /** For local-folder notes: the connection and the note's path, to offer "Open in Obsidian" in a vault. */
  connectionId?: string;
  externalId?: string;
}

export function isWebLink(url: string | null): url is string {
  return url !== null && /^https?:\/\//i.test(url.trim());
}

let noticeIds = 0;

export function createUiSlice(
  systemLanguage: Language,
  set: SetState,
  get: GetState,
  { api, host, openWindow }: StoreDeps,
): UiSlice {
  /** Changes the view unless that would leave Settings with changes not saved (it asks first). */
  const navigate = (change: ViewChange) => {
    const state = get();
    const leaving = state.view === 'settings' && change.view !== 'settings';
    if (leaving && unsavedSections(state.settings, state.settingsEdits).length > 0)
      set({ leaveRequest: change });
    else set({ ...change, leaveRequest: null });
  };
  return {
    view: 'connections',
    host,
    systemLanguage,
    phase: 'loading',
    loadError: null,
    recoverDatabase: (action) => api.app.recover({ action }),
    notice: null,
    addForm: { open: false, platform: 'folder' },
    searchFocusRequest: 0,
    theme: storedTheme(globalThis.localStorage),
    setTheme(theme) {
      storeTheme(globalThis.localStorage, theme);
      set({ theme });
    },
    layout: storedLayout(globalThis.localStorage),
    setLayout(key, value) {
      storeLayout(globalThis.localStorage, key, value);
      set({ layout: { ...get().layout, [key]: value } });
    },
    setView: (view) => navigate({ view }),
    leaveRequest: null,
    async resolveLeave(choice) {
      const change = get().leaveRequest;
      if (!change || choice === 'stay') return set({ leaveRequest: null });
      if (choice === 'save' && !(await get().saveAllSettings())) return set({ leaveRequest: null });
      if (choice === 'discard') get().discardSettingsEdits();
      set({ ...change, leaveRequest: null });
    },
    showNotice: (kind, key, params) =>
      set({
        notice: {
          id: ++noticeIds,
          kind,
          text: translate(selectLanguage(get()), key, params),
          message: { key, ...(params ? { params } : {}) },
        },
      }),
    showError: (error, cause) => {
      if (error.code !== 'CANCELLED')
        set({
          notice: { id: ++noticeIds, kind: 'error', text: error.message, error, ...(cause ? { cause } : {}) },
        });
    },
    showSuccess: (success) =>
      set({ notice: { id: ++noticeIds, kind: 'info', text: success.message, success } }),
    announceSyncFinished(run) {
      if (host !== 'browser' || run.status === 'cancelled' || run.status === 'running') return;
      const state = get();
      const name = state.connections.find((item) => item.id === run.connectionId)?.name ?? run.connectionId;
      const language = selectLanguage(state);
      const { added, updated, deleted, failed } = run.counters;
      const message: NoticeMessage =
        run.status === 'failed'
          ? { key: 'notify.failed', params: { name } }
          : {
              key: failed > 0 ? 'notify.partial' : 'notify.done',
              params: { name, added, updated, deleted, failed },
            };
      const text = translate(language, message.key, message.params);
      const Notify = globalThis.Notification;
      if (Notify?.permission === 'granted' && globalThis.document?.visibilityState === 'hidden') {
        new Notify('Cairn', { body: text, tag: `sync-${run.connectionId}` });
        return;
      }
      if (run.status === 'failed' && run.error)
        set({
          notice: {
            id: ++noticeIds,
            kind: 'error',
            text: `${text} ${run.error.message}`.trim(),
            error: run.error,
            lead: { key: 'notify.failedLead', params: { name } },
            cause: run.connectionId,
          },
        });
      else set({ notice: { id: ++noticeIds, kind: 'info', text, message } });
    },
    dismissNotice: () => set({ notice: null }),
    openAddForm: (platform = 'folder', path) =>
      navigate({ addForm: { open: true, platform, ...(path ? { path } : {}) }, view: 'connections' }),
    closeAddForm: () => set((state) => ({ addForm: { ...state.addForm, open: false } })),
    requestSearchFocus: () => navigate({ view: 'search', searchFocusRequest: get().searchFocusRequest + 1 }),
    async openExternal(url, page) {
      const result = await api.app.openExternal(page ? { url, page } : { url });
      if (!result.ok) get().showError(result.error);
    },
    async openLink(url) {
      if (host === 'browser' && isWebLink(url)) openWindow(url.trim());
      else await get().openExternal(url);
    },
    async openOriginal(original) {
      if (host === 'browser') {
        if (isWebLink(original.url)) {
          openWindow(original.url.trim());
          return;
        }
        if (original.documentId !== null) {
          await get().openPreview({
            documentId: original.documentId,
            passage: original.passage ?? null,
            terms: original.terms ?? [],
            title: original.title,
          });
          return;
        }
      }
      if (original.url)
        await get().openExternal(
          original.url,
          original.location?.kind === 'page' ? original.location.page : undefined,
        );
    },
    async revealFile(url) {
      const result = await api.app.openExternal({ url, reveal: true });
      if (!result.ok) get().showError(result.error);
    },
    async setLanguage(language) {
      await get().saveSettings({ language });
    },
  };
}
