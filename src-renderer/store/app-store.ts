import { createStore } from 'zustand/vanilla';
import type { CairnApi } from '../../src-shared/contract';
import type { StatusSnapshot } from '../../src-shared/models';
import { createChatSlice } from './slices/chat-slice';
import { createConnectionsSlice } from './slices/connections-slice';
import { createHistorySlice } from './slices/history-slice';
import { createSearchSlice } from './slices/search-slice';
import { createSettingsSlice } from './slices/settings-slice';
import { createUiSlice, type Language } from './slices/ui-slice';
import type { AppState, AppStore, StoreDeps } from './store-types';

export interface AppStoreOptions {
  /** @default 'en' */
  systemLanguage?: Language;
  /** @default 150 */
  searchDebounceMs?: number;
}

export interface AppStoreHandle {
  store: AppStore;
  /** Clears the store's timers. */
  dispose(): void;
}

export function createAppStore(api: CairnApi, options: AppStoreOptions = {}): AppStoreHandle {
  const deps: StoreDeps = { api, searchDebounceMs: options.searchDebounceMs ?? 150, timers: new Set() };
  const store = createStore<AppState>()((set, get) => ({
    ...createUiSlice(options.systemLanguage ?? 'en', set, get, deps),
    ...createConnectionsSlice(set, get, deps),
    ...createSearchSlice(set, get, deps),
    ...createChatSlice(set, get, deps),
    ...createHistorySlice(set, get, deps),
    ...createSettingsSlice(set, get, deps),
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
  });
}
