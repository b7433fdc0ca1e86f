/** Search: the request, its filters and facets, and the hits and documents it returns. */
import type { AppErrorData } from '../errors';
import type { ConnectionMode, Platform } from './connections';
import type { SemanticCoverage } from './settings';

export interface SearchRequest {
  query: string;
  /** @default 10 */
  k?: number;
  /** Restrict to these connections; all when absent (an empty list searches none). Same as `filters.connectionIds`. */
  connectionIds?: string[];
  /** Narrows the search before ranking: the top k is the best among the matching documents. */
  filters?: SearchFilters;
  /**
   * The order of `documents`: by relevance (default), or newest modified first among the
   * matching documents (the same candidates, the same filters; `hits` stay by relevance).
   */
  sort?: SearchSort;
  /**
   * Also count the filter bar's values among the matching documents (SearchResponse.facetCounts):
   * the app's filter menus ask for it; chat retrieval and the CLI do not pay for it.
   */
  facetCounts?: boolean;
}

export type SearchSort = 'relevance' | 'modified';

/**
 * The operators core read in the query (query-syntax.ts): `"exact phrase"` and `-word`. Present
 * only when the query used one.
 */
export interface QueryOperators {
  /** Quoted phrases a shown passage holds. */
  phrases: string[];
  /** Words and phrases whose documents were left out. */
  excluded: string[];
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
  /** How current the indexed copy is; absent for a live hit (it is the platform's own answer). */
  freshness?: Freshness;
}

/**
 * When the source was edited and when Cairn last had it, for "edited 3 days ago · synced 2 h ago"
 * on result and source cards (ISO 8601 instants).
 */
export interface Freshness {
  /** The platform's or file's own modified time of the indexed copy; null when the source reports none. */
  editedAt: string | null;
  /** The last time a sync confirmed the copy current: the later of when it was written and its connection's last completed sync. */
  syncedAt: string;
  /**
   * Known to have changed since: a local file modified after it was indexed, or one that is gone;
   * a platform whose listing (a later sync) reported a newer edit than the indexed copy. Absent
   * when not known to have changed.
   */
  changed?: { kind: 'file-modified' | 'file-missing' | 'platform-newer'; at: string | null };
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
  /** The query's operators as core read them; absent when it used none. */
  operators?: QueryOperators;
  /** How many documents matched in all (the candidates after filters and operators): `documents` shows the first k. */
  totalDocuments?: number;
  /**
   * Present (true) when the keyword scan stopped at its depth on a match: more documents may hold
   * the query's words than `totalDocuments` counts (and than the filter counts count), so it is a floor.
   */
  moreMayMatch?: true;
  /** When asked (`facetCounts`): the filter values' counts among the matching documents. */
  facetCounts?: FacetCounts;
  /**
   * How much of the index has vectors in the semantic model's space: those chunks were searched by
   * keyword and meaning (hybrid), the rest by keyword. Absent: keyword search only (no semantic model).
   */
  semantic?: SemanticCoverage;
}

/**
 * How many of a search's matching documents hold each filter value (by connection id, platform,
 * knowledge base name, tag). A field's counts leave that field's own filter out, so ticking a
 * value with a count adds that many. Values with no matching document are absent.
 */
export interface FacetCounts {
  connections: Record<string, number>;
  platforms: Partial<Record<Platform, number>>;
  knowledgeBases: Record<string, number>;
  tags: Record<string, number>;
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

/** "Why not this document?": a search run again with one document followed through every stage. */
export interface ExplainRequest extends SearchRequest {
  /** The document: its id (42 or "d42"), or its title (exactly, else the one title that contains the text). */
  document: string | number;
}

/** Where a document's chunk stood in one channel of the search. */
export interface ChannelStanding {
  /** Its best chunk's 1-based rank in the channel's list; null when none of its chunks is in it. */
  rank: number | null;
  /** How many the channel keeps (its depth); a rank beyond it is not a candidate. */
  depth: number;
  /**
   * The document's best chunk score: BM25 over the keyword text (keyword), cosine similarity to
   * the query (vector); null when it has none (no query word, no vector yet).
   */
  score: number | null;
  /** The score of the channel's last kept hit, for comparison; null when the channel kept nothing. */
  lastKeptScore: number | null;
}

/** Why a document is not shown (or not higher): one stage of the pipeline, in the order it applies. */
export type ExplainReason =
  | { kind: 'not-indexed' }
  | { kind: 'connection-live'; connectionName: string }
  | {
      kind: 'filter';
      filter: 'connection' | 'platform' | 'knowledgeBase' | 'tag' | 'modified';
      value: string;
    }
  | { kind: 'no-query-words' }
  | { kind: 'keyword-depth'; depth: number }
  | { kind: 'no-vector'; why: 'no-space' | 'no-embedder' | 'not-embedded' | 'embed-failed' }
  | { kind: 'similarity-floor'; similarity: number; floor: number }
  | { kind: 'vector-depth'; depth: number }
  | { kind: 'vector-tail' }
  | { kind: 'excluded'; word: string }
  | { kind: 'phrase-missing'; phrase: string }
  | { kind: 'per-document-cap'; dropped: number; max: number }
  | { kind: 'top-k'; rank: number; k: number; total: number }
  | { kind: 'made-room-for-live' };

export interface DocumentExplanation {
  /** The query as searched (operators read, then the text ranked). */
  query: string;
  document: {
    id: number;
    title: string;
    connectionId: string;
    connectionName: string;
    platform: Platform;
    knowledgeBase: string;
    url: string | null;
    chunks: number;
  };
  /** 'shown': in `documents` at `shownRank`; 'ranked-lower': a candidate below the top k; 'not-found': not a candidate. */
  outcome: 'shown' | 'ranked-lower' | 'not-found';
  /** Its place in the documents shown (1-based); null when not shown. */
  shownRank: number | null;
  /** Its place among every candidate document, shown or not (1-based); null when not a candidate. */
  rank: number | null;
  /** The top k the search showed. */
  k: number;
  /** The query's analysed words (what the keyword index holds), and which of them the document holds. */
  words: {
    word: string;
    /** The word as typed, when the analyser changed it (a stem: "windows" → "window"). */
    typed?: string;
    found: boolean;
  }[];
  keyword: ChannelStanding;
  vector: ChannelStanding & { ran: boolean };
  /** The fused (RRF) score of its best candidate chunk after the phrase rules; null when not a candidate. */
  fusedScore: number | null;
  /** Every stage that held it back, in pipeline order; empty when it is shown and nothing did. */
  reasons: ExplainReason[];
  /** Its passage that ranked best (or, when none ranked, the one with most query words or the nearest in meaning). */
  bestPassage: {
    chunkId: number;
    headingPath: string;
    text: string;
    charStart: number;
    charEnd: number;
  } | null;
  /** Core's English summary (CLI and MCP print it as is; the UI words the reasons itself). */
  summary: string;
}

/** A document title for the "why not" type-ahead. */
export interface DocumentTitle {
  id: number;
  title: string;
  knowledgeBase: string;
  platform: Platform;
  connectionId: string;
}
