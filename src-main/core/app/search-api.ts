/** The contract's `search` domain over hybrid search, every failure as data. */
import type { CairnApi } from '@shared/contract';
import { toResult } from '../errors';
import type { HybridSearch } from '../search/hybrid-search';

export function searchApi(search: HybridSearch, signal?: AbortSignal): CairnApi['search'] {
  return {
    query: (input) => toResult(() => search.search(input, signal)),
    facets: () => toResult(() => search.facets()),
    explain: (input) => toResult(() => search.explain(input, signal)),
    titles: (input) => toResult(() => search.titles(input.text, input.limit)),
  };
}
