import type { AppErrorData } from '@shared/errors';
import type {
  DocumentTopic,
  FacetCounts,
  QueryOperators,
  SearchDocument,
  SearchResponse,
  SearchSort,
} from '@shared/models';
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
  /** How many documents matched in all (SearchResponse.totalDocuments); null before an answer. */
  totalDocuments: number | null;
  /** More documents may match than totalDocuments counts (SearchResponse.moreMayMatch): it and the filter counts are floors. */
  moreMayMatch: boolean;
  /** The "phrase" and -word operators core read in the answered query; null when it used none. */
  operators: QueryOperators | null;
  /** The filter values' counts among the answered query's matching documents; null before an answer. */
  facetCounts: FacetCounts | null;
  /** The order of the results: relevance, or newest modified first. Kept across queries. */
  sort: SearchSort;
  /** How many documents to show: PAGE_SIZE, or MAX_RESULTS after "Show more" (a new query starts over). */
  limit: number;
  setSort(sort: SearchSort): void;
  /** Shows up to MAX_RESULTS documents for the answered query. */
  showMore(): void;
  /** Type-ahead: updates the box now and searches after a short pause. */
  setQuery(query: string): void;
  runSearch(query: string): Promise<void>;
  /** Headings from the user's documents, suggested as searches and questions (documents.topics). */
  topics: DocumentTopic[];
  /** Fetches them again (after a sync changed what is indexed); a failure keeps the old ones. */
  loadTopics(): Promise<void>;
}

/** Documents shown at first, and after "Show more" (core's MAX_K). */
export const PAGE_SIZE = 10;
export const MAX_RESULTS = 50;

export function createSearchSlice(
  set: SetState,
  get: GetState,
  { api, searchDebounceMs, timers }: StoreDeps,
): SearchSlice {
  let latest = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  const rerun = () => {
    const query = get().answeredQuery || get().query;
    if (query.trim()) void get().runSearch(query);
  };
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
    totalDocuments: null,
    moreMayMatch: false,
    operators: null,
    facetCounts: null,
    sort: 'relevance',
    limit: PAGE_SIZE,
    topics: [],
    setSort(sort) {
      if (sort === get().sort) return;
      set({ sort });
      rerun();
    },
    showMore() {
      set({ limit: MAX_RESULTS });
      rerun();
    },
    async loadTopics() {
      const result = await api.documents.topics({ limit: 6 });
      if (result.ok) set({ topics: result.value });
    },
    setQuery(query) {
      // A new query starts with one page again; "Show more" was for the last one.
      set({ query, limit: PAGE_SIZE });
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
          totalDocuments: null,
          moreMayMatch: false,
          operators: null,
          facetCounts: null,
        });
        return;
      }
      set({ searching: true });
      const filters = requestFilters(get().searchFilters);
      const { sort, limit } = get();
      const result = await api.search.query({
        query,
        ...(filters ? { filters } : {}),
        ...(limit !== PAGE_SIZE ? { k: limit } : {}),
        ...(sort !== 'relevance' ? { sort } : {}),
        // The filter menus count what this search matches, not the whole index.
        facetCounts: true,
      });
      // An older, slower answer must not replace a newer one.
      if (id !== latest) return;
      if (result.ok) {
        set({
          documents: result.value.documents,
          warnings: result.value.warnings,
          liveSkipped: result.value.liveSkipped ?? [],
          answeredFiltered: !!filters,
          tookMs: result.value.tookMs,
          searching: false,
          searchError: null,
          answeredQuery: query,
          totalDocuments: result.value.totalDocuments ?? result.value.documents.length,
          moreMayMatch: result.value.moreMayMatch === true,
          operators: result.value.operators ?? null,
          facetCounts: result.value.facetCounts ?? null,
        });
        // An open "why not" follows the results: the same document, asked about for this search.
        const asked = get().whyNot;
        if (asked) void get().explainDocument(asked.documentId, asked.title);
      } else
        set({
          documents: [],
          warnings: [],
          liveSkipped: [],
          answeredFiltered: !!filters,
          searching: false,
          searchError: result.error,
          answeredQuery: query,
          totalDocuments: null,
          moreMayMatch: false,
          operators: null,
          facetCounts: null,
        });
    },
  };
}
