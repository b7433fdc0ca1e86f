import type { SearchRequest, SearchResponse } from '@shared/models';

/** Hybrid retrieval over the local index plus live direct-mode connections. */
export interface SearchService {
  search(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse>;
}
