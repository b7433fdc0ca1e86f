/** Search: the request, its filters and facets, and the hits and documents it returns. */
import type { AppErrorData } from '../errors';
import type { ConnectionMode, Platform } from './connections';

export interface SearchRequest {
  query: string;
  /** @default 10 */
  k?: number;
  /** Restrict to these connections; all when absent (an empty list searches none). Same as `filters.connectionIds`. */
  connectionIds?: string[];
  /** Narrows the search before ranking: the top k is the best among the matching documents. */
  filters?: SearchFilters;
}

/**
 * What a search may return. Within a field any listed value matches; across fields all must
 * (connection AND platform AND knowledge base AND tag AND date). An absent or empty list does
 * not filter. Applied inside both index channels (docs/DESIGN.md, "Search filters").
 */
export interface SearchFilters {
  connectionIds?: string[];
  /**
   * Connections as a person or an AI tool names them (CLI `--connection`, MCP `connection`): an id,
   * else a name exactly, else a name in any case. Resolved by core; one that names no connection is
   * NOT_FOUND with the names there are. Joins `connectionIds` (either list matches).
   */
  connectionNames?: string[];
  /** A platform no connection has is NOT_FOUND (with the connections there are). */
  platforms?: Platform[];
  /** Knowledge base (space, wiki, book, folder) names as the index shows them, matched exactly. */
  knowledgeBases?: string[];
  /**
   * Knowledge bases as typed (CLI `--kb`, MCP `knowledge_base`): a name exactly, else in any case,
   * else every name containing the text (core's search/facet-match.ts). Resolved by core; one that
   * matches nothing is NOT_FOUND with the names there are. Joins `knowledgeBases`.
   */
  knowledgeBaseNames?: string[];
  /** Front matter tags, matched without regard to case and a leading "#" (Obsidian's rule). */
  tags?: string[];
  /**
   * Modified at or after this instant (ISO 8601; a bare date is UTC midnight). The platform's or
   * file's own modified time; the time it was indexed for a source that reports none (Tencent IMA).
   */
  modifiedAfter?: string;
  /** Modified before this instant (exclusive; ISO 8601 like `modifiedAfter`). */
  modifiedBefore?: string;
}

/** The filters a live platform search cannot apply (its results carry no date or tags). */
export type LiveFilterGap = 'modified' | 'tags';

/** What the filter bar offers: every value in the index with its document count, cheap to compute. */
export interface SearchFacets {
  /** Every connection; `documents` counts the indexed ones (0 for a direct-mode connection: searched live). */
  connections: { id: string; name: string; platform: Platform; mode: ConnectionMode; documents: number }[];
  platforms: { platform: Platform; documents: number }[];
  /** By name; `connectionIds` says where a name occurs (two connections may share one). */
  knowledgeBases: { name: string; documents: number; connectionIds: string[] }[];
  tags: { tag: string; documents: number }[];
  /** The oldest and newest modified time among indexed documents; null for an empty index. */
  modified: { oldest: string; newest: string } | null;
}

/**
 * Where a passage sits in its original file, for the source card ("p. 12", "slide 3", "Sheet1,
 * rows 2–40") and for "Open original" (a PDF opens at `page` where the viewer supports it).
 * Pages, slides and rows are 1-based; the `end*`/`lastRow` fields are set when a passage spans several.
 */
export type ChunkLocation =
  | { kind: 'page'; page: number; endPage?: number }
  | { kind: 'slide'; slide: number; endSlide?: number }
  | { kind: 'rows'; sheet: string; firstRow: number; lastRow: number };

export interface SearchHit {
  /** Stable key: `chunk:<id>` for local hits, `direct:<connectionId>:<externalId>` for live ones. */
  key: string;
  source: 'index' | 'direct';
  connectionId: string;
  platform: Platform;
  documentId: number | null;
  externalId: string;
  title: string;
  knowledgeBase: string;
  url: string | null;
  headingPath: string;
  text: string;
  charStart: number | null;
  charEnd: number | null;
  /** Page, slide or rows of the original file (PDF, PPTX, XLSX/CSV); absent or null when the format has none. */
  location?: ChunkLocation | null;
  score: number;
  /** 1-based rank in each channel that found it, for "why did this rank"; `rerank` after a reranker reordered the candidates. */
  ranks: { vector?: number; keyword?: number; direct?: number; rerank?: number };
}

/** One document in the results, ranked by its best passage (see docs/decisions for why core groups). */
export interface SearchDocument {
  /** The document's best-ranked passage; a live (direct) hit is a document of one passage. */
  best: SearchHit;
  /** Its other matching passages, best first (at most two: core keeps three chunks per document). */
  more: SearchHit[];
}

export interface SearchResponse {
  /** The top-k passages (chunks), several per document possible: what chat retrieval and the eval use. */
  hits: SearchHit[];
  /** The top-k documents, one entry per document: what people are shown (app, CLI). */
  documents: SearchDocument[];
  /** Direct-mode connections that failed or timed out; the local results still stand. */
  warnings: { connectionId: string; error: AppErrorData }[];
  /**
   * Direct-mode connections not asked because a filter in the request cannot be applied to their
   * live results (modified date, tags): left out rather than shown unfiltered. Absent when none.
   */
  liveSkipped?: {
    connectionId: string;
    filters: LiveFilterGap[];
    /** Core's English sentence, e.g. "Team Wiki was not searched: its live search cannot filter by modified date." */
    message: string;
  }[];
  /** The name of every connection a hit, warning or skipped source names, by connection id. */
  connectionNamesById?: Record<string, string>;
  /** Present (true) when there is no connection at all: nothing could be searched. */
  noConnections?: true;
  tookMs: number;
  /** What the local reranker did; absent when none is in use (none installed, or turned off). */
  rerank?: RerankInfo;
}

export interface RerankInfo {
  status: 'applied' | 'skipped';
  /** The reranker's catalogue id. */
  model: string;
  /** Why it was skipped: over the time budget, still loading, fewer than 2 candidates, or it failed. */
  reason: 'budget' | 'timeout' | 'loading' | 'too-few' | 'error' | null;
  /** Candidates reordered (the fused top-30, fewer when only fewer fit the budget). */
  depth: number;
  tookMs: number;
  /** The cost estimated before running (for a skip: of the full depth). */
  estimatedMs: number | null;
}
