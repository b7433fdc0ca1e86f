import { createStore } from 'zustand/vanilla';
import type { CairnApi } from '@shared/contract';
import type { StatusSnapshot } from '@shared/models';
import type { Language } from '../i18n/i18n';
import { createChatSlice } from './slices/chat-slice';
import { createConnectionsSlice } from './slices/connections-slice';
import { createFilterSlice } from './slices/filter-slice';
import { createHistorySlice } from './slices/history-slice';
import { createMcpSlice } from './slices/mcp-slice';
import { createPreviewSlice } from './slices/preview-slice';
import { createSearchSlice } from './slices/search-slice';
import { createModelsSlice } from './slices/models-slice';
import { createSettingsSlice } from './slices/settings-slice';
import { createSignInSlice } from './slices/sign-in-slice';
import { createUiSlice } from './slices/ui-slice';
import { createWhyNotSlice } from './slices/why-not-slice';
import type { AppState, AppStore, StoreDeps } from './store-types';

export interface AppStoreOptions {
  /** @default 'en' */
  systemLanguage?: Language;
  /** @default 150 */
  searchDebounceMs?: number;
  /** @default window.open in a new tab without opener or referrer */
  openWindow?: (url: string) => void;
  /** @default 'browser' */
  host?: 'desktop' | 'browser';
}

function openInNewTab(url: string): void {
  // noopener: the sign-in page gets no handle on this window; noreferrer: it does not learn the token-bearing address.
  window.open(url, '_blank', 'noopener,noreferrer');
}

export interface AppStoreHandle {
  store: AppStore;
  /** Clears the store's timers. */
  dispose(): void;
}

export function createAppStore(api: CairnApi, options: AppStoreOptions = {}): AppStoreHandle {
  const deps: StoreDeps = {
    api,
    searchDebounceMs: options.searchDebounceMs ?? 150,
    timers: new Set(),
    openWindow: options.openWindow ?? openInNewTab,
    host: options.host ?? 'browser',
  };
  const store = createStore<AppState>()((set, get) => ({
    ...createUiSlice(options.systemLanguage ?? 'en', set, get, deps),
    ...createConnectionsSlice(set, get, deps),
    ...createSignInSlice(set, get, deps),
    ...createSearchSlice(set, get, deps),
    ...createFilterSlice(set, get, deps),
    ...createChatSlice(set, get, deps),
    ...createHistorySlice(set, get, deps),
    ...createPreviewSlice(set, get, deps),
    ...createSettingsSlice(set, get, deps),
    ...createMcpSlice(set, get, deps),
    ...createModelsSlice(set, get, deps),
    ...createWhyNotSlice(set, get, deps),
  }));
  return {
    store,
    dispose() {
      for (const timer of deps.timers) clearTimeout(timer);
      deps.timers.clear();
    },
  };
}

/** Applies the start-up snapshot (app.status) to the stores. */
export function hydrate(store: AppStore, snapshot: StatusSnapshot): void {
  store.setState({
    phase: 'ready',
    loadError: null,
    connections: snapshot.connections,
    progress: snapshot.syncing,
    settings: snapshot.settings,
    reindex: snapshot.reindex,
    version: snapshot.version,
    dataDir: snapshot.dataDir,
    storage: snapshot.storage,
    secretStorage: snapshot.secretStorage,
  });
}
