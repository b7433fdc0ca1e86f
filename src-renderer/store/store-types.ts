/** The renderer's store: one zustand store composed of slices (lobe-chat's layout, STYLE.md). */
import type { StoreApi } from 'zustand/vanilla';
import type { CairnApi } from '@shared/contract';
import type { ChatSlice } from './slices/chat-slice';
import type { ConnectionsSlice } from './slices/connections-slice';
import type { FilterSlice } from './slices/filter-slice';
import type { HistorySlice } from './slices/history-slice';
import type { McpSlice } from './slices/mcp-slice';
import type { ModelsSlice } from './slices/models-slice';
import type { PreviewSlice } from './slices/preview-slice';
import type { SearchSlice } from './slices/search-slice';
import type { SettingsSlice } from './slices/settings-slice';
import type { SignInSlice } from './slices/sign-in-slice';
import type { UiSlice } from './slices/ui-slice';
import type { WhyNotSlice } from './slices/why-not-slice';

export type AppState = UiSlice &
  ConnectionsSlice &
  SignInSlice &
  SearchSlice &
  FilterSlice &
  ChatSlice &
  HistorySlice &
  PreviewSlice &
  SettingsSlice &
  McpSlice &
  ModelsSlice &
  WhyNotSlice;
export type AppStore = StoreApi<AppState>;

export interface StoreDeps {
  api: CairnApi;
  /** Pause between the last keystroke and the search call. */
  searchDebounceMs: number;
  /** Timers the store starts, so dispose can clear them (STYLE.md §9). */
  timers: Set<ReturnType<typeof setTimeout>>;
  /** Opens a page in a new browser tab (the browser UI's sign-in); Electron's shell opens pages itself. */
  openWindow: (url: string) => void;
  /**
   * desktop: Electron's shell opens links and files with the OS. browser: the headless host's page,
   * where a web link opens in a new tab and a local file in the in-app preview (the OS opener would
   * act on the machine running `cairn serve`, out of the user's sight).
   */
  host: 'desktop' | 'browser';
}

export type SetState = AppStore['setState'];
export type GetState = AppStore['getState'];
