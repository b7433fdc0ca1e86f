/** The renderer's store: one zustand store composed of slices (lobe-chat's layout, STYLE.md). */
import type { StoreApi } from 'zustand/vanilla';
import type { CairnApi } from '@shared/contract';
import type { ChatSlice } from './slices/chat-slice';
import type { ConnectionsSlice } from './slices/connections-slice';
import type { HistorySlice } from './slices/history-slice';
import type { McpSlice } from './slices/mcp-slice';
import type { ModelsSlice } from './slices/models-slice';
import type { SearchSlice } from './slices/search-slice';
import type { SettingsSlice } from './slices/settings-slice';
import type { SignInSlice } from './slices/sign-in-slice';
import type { UiSlice } from './slices/ui-slice';

export type AppState = UiSlice &
  ConnectionsSlice &
  SignInSlice &
  SearchSlice &
  ChatSlice &
  HistorySlice &
  SettingsSlice &
  McpSlice &
  ModelsSlice;
export type AppStore = StoreApi<AppState>;

export interface StoreDeps {
  api: CairnApi;
  /** Pause between the last keystroke and the search call. */
  searchDebounceMs: number;
  /** Timers the store starts, so dispose can clear them (STYLE.md §9). */
  timers: Set<ReturnType<typeof setTimeout>>;
  /** Opens a page in a new browser tab (the browser UI's sign-in); Electron's shell opens pages itself. */
  openWindow: (url: string) => void;
}

export type SetState = AppStore['setState'];
export type GetState = AppStore['getState'];
