import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { StatusSnapshot } from '@shared/models';
import { createAppStore, hydrate, type AppStoreOptions } from '../store/app-store';
import type { AppStore } from '../store/store-types';
import { StoreProvider } from '../store/store-context';
import { snapshot } from './fake-api';
import type { FakeBackend } from './fake-api';

/** Renders `ui` over a store hydrated from `status`, as main.tsx does after app.status. */
export function renderWithStore(
  ui: ReactElement,
  backend: FakeBackend,
  status: Partial<StatusSnapshot> = {},
  options: AppStoreOptions = {},
): RenderResult & { store: AppStore } {
  const { store } = createAppStore(backend.api, { searchDebounceMs: 0, ...options });
  hydrate(store, snapshot(status));
  return { store, ...render(<StoreProvider store={store}>{ui}</StoreProvider>) };
}
