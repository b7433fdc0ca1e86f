import type { AppErrorData } from '@shared/errors';
import type { DocumentTopic, SearchDocument, SearchResponse } from '@shared/models';
import { requestFilters } from '../filter-model';
import type { GetState, SetState, StoreDeps } from '../store-types';

export interface SearchSlice {
  query: string;
  /** One entry per document, best passage first (core groups the chunks). */
  documents: SearchDocument[];
  warnings: SearchResponse['warnings'];
  /** Live sources left out because a filter cannot apply to them (SearchResponse.liveSkipped). */
  liveSkipped: NonNullable<SearchResponse['liveSkipped']>;
  /** Whether the shown results were filtered (the count and "Nothing matches" say so). */
  answeredFiltered: boolean;
  searching: boolean;
  searchError: AppErrorData | null;
  tookMs: number | null;
  /** The query the shown hits answer (the box may be ahead of it while typing). */
  answeredQuery: string;
  /** Type-ahead: updates the box now and searches after a short pause. */
  setQuery(query: string): void;
  runSearch(query: string): Promise<void>;
  /** Headings from the user's documents, suggested as searches and questions (documents.topics). */
  topics: DocumentTopic[];
  /** Fetches them again (after a sync changed what is indexed); a failure keeps the old ones. */
  loadTopics(): Promise<void>;
}

export function createSearchSlice(
  set: SetState,
  get: GetState,
  { api, searchDebounceMs, timers }: StoreDeps,
): SearchSlice {
  let latest = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  return {
    query: '',
    documents: [],
    warnings: [],
    liveSkipped: [],
    answeredFiltered: false,
    searching: false,
    searchError: null,
    tookMs: null,
    answeredQuery: '',
    topics: [],
    async loadTopics() {
      const result = await api.documents.topics({ limit: 6 });
      if (result.ok) set({ topics: result.value });
    },
    setQuery(query) {
      set({ query });
      if (pending) {
        clearTimeout(pending);
        timers.delete(pending);
      }
      pending = setTimeout(() => {
        if (pending) timers.delete(pending);
        pending = null;
        void get().runSearch(query);
      }, searchDebounceMs);
      timers.add(pending);
    },
    async runSearch(query) {
      const id = ++latest;
      if (!query.trim()) {
        set({
          documents: [],
          warnings: [],
          liveSkipped: [],
          answeredFiltered: false,
          searching: false,
          searchError: null,
          tookMs: null,
          answeredQuery: '',
        });
        return;
      }
      set({ searching: true });
      const filters = requestFilters(get().searchFilters);
      const result = await api.search.query(filters ? { query, filters } : { query });
      // An older, slower answer must not replace a newer one.
      if (id !== latest) return;
      if (result.ok)
        set({
          documents: result.value.documents,
          warnings: result.value.warnings,
          liveSkipped: result.value.liveSkipped ?? [],
          answeredFiltered: !!filters,
          tookMs: result.value.tookMs,
          searching: false,
          searchError: null,
          answeredQuery: query,
        });
      else
        set({
          documents: [],
          warnings: [],
          liveSkipped: [],
          answeredFiltered: !!filters,
          searching: false,
          searchError: result.error,
          answeredQuery: query,
        });
    },
  };
}
