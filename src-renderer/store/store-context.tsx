/** The React binding of the store: a context plus selector hooks (zustand's split of core and binding). */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { AppState, AppStore } from './store-types';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreProvider is missing.');
  return store;
}

export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/** For selectors that build a new object or array each time. */
export function useAppShallow<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), useShallow(selector));
}
