import type { AppErrorData } from '@shared/errors';
import type { DocumentExplanation, DocumentTitle } from '@shared/models';
import { requestFilters } from '../filter-model';
import type { GetState, SetState, StoreDeps } from '../store-types';
import { PAGE_SIZE } from './search-slice';

/** The document the user asked about and what core said about it for the answered query. */
export interface WhyNotState {
  documentId: number;
  title: string;
  status: 'loading' | 'ready' | 'failed';
  explanation: DocumentExplanation | null;
  error: AppErrorData | null;
}

/**
 * "Why not this document?": the user names a document (type-ahead over indexed titles) and core
 * follows it through the search the results came from (same query, filters, sort and page size).
 */
export interface WhyNotSlice {
  whyNotOpen: boolean;
  whyNot: WhyNotState | null;
  /** Titles matching what is typed in the panel's box, best first. */
  titleMatches: DocumentTitle[];
  openWhyNot(): void;
  closeWhyNot(): void;
  /** Looks titles up as the user types; an older, slower answer never replaces a newer one. */
  findTitles(text: string): Promise<void>;
  /** Asks core about this document for the answered query (again after the query changes). */
  explainDocument(documentId: number, title: string): Promise<void>;
}

const TITLE_LIMIT = 8;

export function createWhyNotSlice(set: SetState, get: GetState, { api }: StoreDeps): WhyNotSlice {
  let latestTitles = 0;
  let latestExplain = 0;
  return {
    whyNotOpen: false,
    whyNot: null,
    titleMatches: [],
    openWhyNot: () => set({ whyNotOpen: true }),
    closeWhyNot() {
      latestTitles += 1;
      latestExplain += 1;
      set({ whyNotOpen: false, whyNot: null, titleMatches: [] });
    },
    async findTitles(text) {
      const id = ++latestTitles;
      if (!text.trim()) {
        set({ titleMatches: [] });
        return;
      }
      const result = await api.search.titles({ text, limit: TITLE_LIMIT });
      if (id !== latestTitles) return;
      // A failed lookup offers nothing; the box keeps what was typed.
      set({ titleMatches: result.ok ? result.value : [] });
    },
    async explainDocument(documentId, title) {
      const id = ++latestExplain;
      const { answeredQuery, query, searchFilters, sort, limit } = get();
      set({ whyNot: { documentId, title, status: 'loading', explanation: null, error: null } });
      const filters = requestFilters(searchFilters);
      const result = await api.search.explain({
        query: answeredQuery || query,
        document: documentId,
        ...(filters ? { filters } : {}),
        ...(limit !== PAGE_SIZE ? { k: limit } : {}),
        ...(sort !== 'relevance' ? { sort } : {}),
      });
      if (id !== latestExplain) return;
      set({
        whyNot: result.ok
          ? { documentId, title, status: 'ready', explanation: result.value, error: null }
          : { documentId, title, status: 'failed', explanation: null, error: result.error },
      });
    },
  };
}
