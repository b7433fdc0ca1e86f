/**
 * The search view's filters: what the user chose (kept for as long as the app stays open, across
 * views) and what there is to choose from (search.facets, loaded again after a sync).
 */
import type { SearchFacets } from '@shared/models';
import { NO_FILTERS, type FilterState } from '../filter-model';
import type { GetState, SetState, StoreDeps } from '../store-types';

export interface FilterSlice {
  searchFilters: FilterState;
  facets: SearchFacets | null;
  /** Fetches the facets; a failure keeps the old ones (the bar still works with what it has). */
  loadFacets(): Promise<void>;
  /** Changes some filters and searches again at once (no debounce: a click is a decision). */
  setSearchFilters(change: Partial<FilterState>): void;
  clearSearchFilters(): void;
}

export function createFilterSlice(set: SetState, get: GetState, { api }: StoreDeps): FilterSlice {
  const rerun = () => {
    const { query } = get();
    if (query.trim()) void get().runSearch(query);
  };
  return {
    searchFilters: NO_FILTERS,
    facets: null,
    async loadFacets() {
      const result = await api.search.facets();
      if (result.ok) set({ facets: result.value });
    },
    setSearchFilters(change) {
      set({ searchFilters: { ...get().searchFilters, ...change } });
      rerun();
    },
    clearSearchFilters() {
      set({ searchFilters: NO_FILTERS });
      rerun();
    },
  };
}
