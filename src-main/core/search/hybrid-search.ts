/**
 * Hybrid retrieval: vector top-30 (active embedding space only) + BM25 keyword top-30 over the
 * local index, plus live results of direct-mode connections, fused by RRF (k=60) into top-K.
 * Only connections in 'rag' mode contribute index hits: a connection switched to direct keeps its
 * index on disk but is searched live.
 *
 * This file is the pipeline: filters (names resolved: named-filters.ts) → the index's rankings (index-retrieval.ts) beside the live
 * sources (direct-channel.ts) → fusion → phrase rerank → per-document cap → cross-encoder rerank →
 * top k passages and documents (search-hits.ts, document-groups.ts).
 */
import type {
  DocumentExplanation,
  FacetCounts,
  DocumentTitle,
  ExplainRequest,
  Platform,
  SearchFacets,
  SearchHit,
  SearchRequest,
  SearchResponse,
  SemanticCoverage,
} from '@shared/models';
import type { Db } from '../db/database';
import { accessGate } from '../db/access-gate';
import type { Embedder, EmbeddingSpace } from '../embedding/embedder';
import { isAbortError, throwIfAborted } from '../errors';
import type { SpaceRecord } from '../index/embedding-spaces';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import { CHANNEL_DEPTH, DEEP_CHUNKS_PER_DOCUMENT, type ChannelScope } from './channel-scope';
import {
  DEFAULT_DIRECT_TIMEOUT_MS,
  searchDirectSources,
  type DirectResult,
  type DirectSearchSource,
  type DirectWarning,
} from './direct-channel';
import { capPerDocument, documentKeyOf, topDocuments } from './document-groups';
import { explainDocument, findDocumentTitles, resolveExplainTarget } from './explain-document';
import {
  folderFilePath,
  freshnessOf,
  modifiedTime,
  readDocumentTimes,
  type DocumentTimes,
} from './freshness';
import { retrieveFromIndex, type IndexRetrieval } from './index-retrieval';
import { keepLiveHits, liveSources, type SkippedSource } from './live-filters';
import { resolveNamedFilters } from './named-filters';
import { rerankByPhrase } from './phrase-rerank';
import { ALL_RULES, type RankingRules } from './ranking-rules';
import { clampK, MAX_K, prepareQuery, type PreparedQuery } from './query-text';
import { applyOperators, parseQuerySyntax, type OperatorDrop, type QuerySyntax } from './query-syntax';
import { QueryVectorCache } from './query-vector-cache';
import { rerankCandidates, type Reranker } from './reranking';
import { chunkIdOf, chunkKey } from './result-keys';
import { RRF_K, reciprocalRankFusion, topKKeepingChannels, type FusedItem } from './rrf';
import { SearchCatalog, type SearchConnection, type SearchConnections } from './search-catalog';
import { searchFacets } from './search-facets';
import { countFacets, FACET_FIELDS, filtersBy, withoutFieldFilter, type FacetField } from './facet-counts';
import { checkFilters, indexScope, type CheckedFilters } from './search-filters';
import {
  candidateText,
  fusedHit,
  liveRankings,
  withPlatforms,
  type ChunkRow,
  type LiveHitRef,
} from './search-hits';
import type { SearchService } from './search-service';
import { configureVectorSession } from './vector-channel';

export interface HybridSearchOptions {
  db: Db;
  /** The embedder for a space, or null when it is not available (then the vector channel is skipped). */
  queryEmbedder: (space: EmbeddingSpace) => Embedder | null;
  /** Where the connections are read (the connection repository). @default the connections table */
  connections?: SearchConnections;
  /** Direct-mode connections to search live; read on every search since modes change. */
  directSources?: () => DirectSearchSource[];
  /** Cosine similarity below which a vector hit is dropped as noise, per space. @default no floor */
  minVectorSimilarity?: (space: EmbeddingSpace) => number;
  /** The vector channel's weight in RRF, per space (the keyword channel's is 1). @default 1 */
  vectorWeight?: (space: EmbeddingSpace) => number;
  /**
   * How much of the index the active space's vectors cover (the semantic index builds in the
   * background), reported with every search; null or absent: keyword search only.
   */
  semanticCoverage?: () => SemanticCoverage | null;
  /** Chunks of one document kept in the results (its best ones). @default 3 */
  maxHitsPerDocument?: number;
  /** The local reranker and its time budget, read on every search; null = no reranking. @default none */
  reranker?: () => { reranker: Reranker; budgetMs: number } | null;
  /** Applied to the messages of direct-search warnings (a platform may quote a credential back). @default none */
  redact?: (text: string) => string;
  /** @default 3000 ms for every platform */
  directTimeoutMs?: number | Partial<Record<Platform, number>>;
  logger?: Logger;
  /** The ranking rules applied; every one in the app. Only the rule ablation switches one off. @default ALL_RULES */
  rules?: Readonly<RankingRules>;
}

const NOTHING_INDEXED: IndexRetrieval = {
  vector: [],
  vectorSpace: null,
  keyword: [],
  keywordFull: false,
  rows: new Map(),
};

/** Why the vector channel did not rank (null: it ran). */
export type VectorSkip = 'no-space' | 'no-embedder' | 'embed-failed' | null;

/** What a search read: the fused candidates and everything needed to turn them into hits. */
interface Retrieved {
  fused: FusedItem<Channel>[];
  chunks: Map<number, ChunkRow>;
  direct: { results: DirectResult[]; warnings: DirectWarning[] };
  live: Map<string, LiveHitRef>;
  skipped: SkippedSource[];
  /** Every connection's name by id (empty: there is no connection). */
  names: ReadonlyMap<string, string>;
  /** The index's channels as they ranked (before fusion). */
  index: IndexRetrieval;
  /** The filters with names resolved; null when nothing was searched (no connection). */
  filters: CheckedFilters | null;
  scope: ChannelScope | null;
  searchesIndex: boolean;
  connections: readonly SearchConnection[];
  vectorSkip: VectorSkip;
  queryVector: Float32Array | null;
  minSimilarity: number | null;
  /** The vector ranking was left out: a tail behind no keyword hit (see retrieve). */
  vectorTailDropped: boolean;
  /** Candidates the query's operators removed, by key, and why. */
  dropped: Map<string, OperatorDrop>;
  /** The indexed candidates' documents' times (freshness, sorting by date). */
  times: Map<number, DocumentTimes>;
}

const NOTHING_FOUND: Omit<Retrieved, 'names' | 'connections'> = {
  fused: [],
  chunks: new Map(),
  direct: { results: [], warnings: [] },
  live: new Map(),
  skipped: [],
  index: NOTHING_INDEXED,
  filters: null,
  scope: null,
  searchesIndex: false,
  vectorSkip: 'no-space',
  queryVector: null,
  minSimilarity: null,
  vectorTailDropped: false,
  dropped: new Map(),
  times: new Map(),
};

export type Channel = 'vector' | 'keyword' | 'rerank' | `direct:${string}`;

/**
 * Everything one search decided, stage by stage: the response is built from it, and "why not this
 * document?" (explain-document.ts) reads the same stages instead of ranking again on its own.
 */
export interface SearchStages extends Retrieved {
  query: PreparedQuery;
  syntax: QuerySyntax;
  k: number;
  /** The fused candidates that passed the operators, after the heading rule (phrase-rerank.ts). */
  ranked: FusedItem<Channel>[];
  /** `ranked` with each document's chunks beyond the per-document cap dropped. */
  capped: FusedItem<Channel>[];
  maxHitsPerDocument: number;
  /** `capped` after the cross-encoder (when it ran): the order the top k is cut from. */
  ordered: FusedItem<Channel>[];
  /** Every candidate document in the order shown (relevance or date), before the top-k cut. */
  documentOrder: string[];
  response: SearchResponse;
}

const DEFAULT_MAX_HITS_PER_DOCUMENT = 3;
/** The page a search shows unless asked for more (clampK's default). */
const DEFAULT_K = 10;

export class HybridSearch implements SearchService {
  private readonly db: Db;
  /** Connections and the active space, kept between searches (search-catalog.ts). */
  private readonly catalog: SearchCatalog;
  private readonly logger: Logger;
  private sessionReady: Promise<void> | null = null;
  private readonly queryVectors = new QueryVectorCache();

  constructor(private readonly options: HybridSearchOptions) {
    this.db = options.db;
    this.catalog = new SearchCatalog(options.db, options.connections);
    this.logger = options.logger ?? silentLogger();
  }

  /** Indexed documents whose title holds `text`, for the "why not" type-ahead (explain-document.ts). */
  titles(text: string, limit?: number): Promise<DocumentTitle[]> {
    return accessGate(this.db).read(() => findDocumentTitles(this.db, text, limit));
  }

  /** What the filter bar offers (search-facets.ts). */
  facets(): Promise<SearchFacets> {
    return searchFacets(this.db);
  }

  async search(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> {
    const started = performance.now();
    const run = await this.run(request, signal);
    const facetCounts =
      request?.facetCounts && !run.response.noConnections
        ? await this.countFacets(request, run, signal)
        : null;
    return {
      ...run.response,
      ...(facetCounts ? { facetCounts } : {}),
      tookMs: Math.round(performance.now() - started),
    };
  }

  /** The filter bar's counts for this search; a field with a filter is counted on a run without it (facet-counts.ts). */
  private async countFacets(
    request: SearchRequest,
    run: SearchStages,
    signal?: AbortSignal,
  ): Promise<FacetCounts> {
    const counts = await accessGate(this.db).read(() => countFacets(this.db, run.documentOrder, run.chunks));
    for (const field of FACET_FIELDS) {
      if (!filtersBy(request, field)) continue;
      const other = await this.run(withoutFieldFilter(request, field), signal);
      const recount = await accessGate(this.db).read(() =>
        countFacets(this.db, other.documentOrder, other.chunks),
      );
      (counts as Record<FacetField, unknown>)[field] = recount[field];
    }
    return counts;
  }

  /**
   * "Why not this document?": the search run as `search` runs it, then the one document followed
   * through its stages (explain-document.ts). NOT_FOUND when no indexed document matches `document`.
   */
  async explain(request: ExplainRequest, signal?: AbortSignal): Promise<DocumentExplanation> {
    const target = await resolveExplainTarget(this.db, request?.document);
    const run = await this.run(request, signal);
    return accessGate(this.db).read(() =>
      explainDocument(this.db, run, target, { maxHitsPerDocument: run.maxHitsPerDocument }),
    );
  }

  /** One search, every stage kept (SearchStages); `search` returns its response. */
  async run(request: SearchRequest, signal?: AbortSignal): Promise<SearchStages> {
    const filters = checkFilters(request ?? { query: '' });
    const syntax = parseQuerySyntax(typeof request?.query === 'string' ? request.query : '');
    const query = prepareQuery(syntax.text, this.options.rules ?? ALL_RULES);
    const k = clampK(request?.k);
    const maxHitsPerDocument = this.options.maxHitsPerDocument ?? DEFAULT_MAX_HITS_PER_DOCUMENT;
    const operators =
      syntax.phrases.length > 0 || syntax.excluded.length > 0
        ? { operators: { phrases: syntax.phrases, excluded: syntax.excluded } }
        : {};
    if (!query) {
      return {
        ...NOTHING_FOUND,
        names: new Map(),
        connections: [],
        query: {
          text: '',
          keywordText: '',
          frameKeywordText: '',
          phrases: [],
          truncated: false,
        },
        syntax,
        k,
        ranked: [],
        capped: [],
        maxHitsPerDocument,
        ordered: [],
        documentOrder: [],
        response: { hits: [], documents: [], warnings: [], tookMs: 0, ...operators },
      };
    }
    // One read for every statement of the search: a sync's next write waits until it is done
    // instead of slipping in between its statements (access-gate.ts).
    const retrieved = await accessGate(this.db).read(() => this.retrieve(query, syntax, filters, signal));
    const { chunks, direct, live, skipped, names, dropped, times } = retrieved;
    const stages = { ...retrieved, query, syntax, k, maxHitsPerDocument };
    if (names.size === 0)
      return {
        ...stages,
        ranked: [],
        capped: [],
        ordered: [],
        documentOrder: [],
        response: { hits: [], documents: [], warnings: [], noConnections: true, tookMs: 0 },
      };
    const rankOf = (fused: FusedItem<Channel>[], cut: ReadonlyMap<string, OperatorDrop>) =>
      rerankByPhrase(
        fused.filter((item) => !cut.has(item.key)),
        (key) => rowOf(key, chunks),
        query.phrases,
        this.options.rules ?? ALL_RULES,
      );
    const ranked = rankOf(retrieved.fused, dropped);
    // Every direct-mode connection that answered shows its best hit (see topKKeepingChannels), and
    // no one document fills the page: its best few chunks stand for it.
    const capped = capPerDocument(ranked, chunks, maxHitsPerDocument);
    // The fused top-30 reordered by the cross-encoder (when installed and within budget), before the top-k cut.
    const { items: head, info: rerank } = await this.rerank(query.text, capped, chunks, live, signal);
    // A page past the first ("Show more" asks for up to 50 documents) needs more candidates than
    // the channels' 30 chunks, and so does the newest first of every match (not of the 30 most
    // relevant): both channels rank deeper (keyword scan and vector channel alike, so a paraphrase
    // only the vectors find can rank past 30 too), and their further candidates follow the default
    // ranking, which stays as it was, so the results already shown keep their places.
    let ordered = head;
    let keywordFull = retrieved.index.keywordFull;
    const byDate = request.sort === 'modified';
    if ((k > DEFAULT_K || byDate) && retrieved.searchesIndex) {
      const documentsWanted = byDate ? Math.max(k, MAX_K) : k;
      const deep = await accessGate(this.db).read(() =>
        this.retrieve(query, syntax, filters, signal, {
          depth: documentsWanted * DEEP_CHUNKS_PER_DOCUMENT,
        }),
      );
      for (const [id, row] of deep.chunks) if (!chunks.has(id)) chunks.set(id, row);
      for (const [id, time] of deep.times) if (!times.has(id)) times.set(id, time);
      for (const [key, drop] of deep.dropped) if (!dropped.has(key)) dropped.set(key, drop);
      const shown = new Set(head.map((item) => item.key));
      const further = rankOf(deep.fused, deep.dropped).filter((item) => !shown.has(item.key));
      ordered = capPerDocument([...head, ...further], chunks, maxHitsPerDocument);
      keywordFull = deep.index.keywordFull;
    }
    const guaranteed = direct.results.map((result) => `direct:${result.source.connectionId}` as Channel);
    const toHit = (item: FusedItem<Channel>) => fusedHit(item, chunks, live);
    const hits = topKKeepingChannels(ordered, k, guaranteed)
      .map(toHit)
      .filter((hit) => hit !== null);
    // The same candidates, one per document: the top k documents, each with its best chunks; or,
    // sorted by date, the k newest of them.
    const dated = byDate ? newestFirst(ordered, chunks, times) : ordered;
    const documents = byDate
      ? topDocuments(dated, k, [], chunks, toHit)
      : topDocuments(ordered, k, guaranteed, chunks, toHit);
    const documentOrder = [...new Set(dated.map((item) => documentKeyOf(item.key, chunks)))];
    await this.addFreshness([...hits, ...documents.flatMap((d) => [d.best, ...d.more])], chunks, times);
    const redact = this.options.redact;
    const warnings = redact
      ? direct.warnings.map((w) => ({ ...w, error: { ...w.error, message: redact(w.error.message) } }))
      : direct.warnings;
    const response: SearchResponse = {
      hits,
      documents,
      warnings,
      ...(skipped.length > 0 ? { liveSkipped: skipped } : {}),
      connectionNamesById: namesOf(
        [...hits, ...documents.flatMap((d) => [d.best, ...d.more]), ...warnings, ...skipped],
        names,
      ),
      tookMs: 0,
      ...(rerank ? { rerank } : {}),
      ...this.coverage(retrieved.index.vectorSpace),
      ...operators,
      totalDocuments: documentOrder.length,
      ...(keywordFull ? { moreMayMatch: true as const } : {}),
    };
    return { ...stages, ranked, capped, ordered, documentOrder, response };
  }

  /** Each indexed hit's freshness (freshness.ts); a folder file is looked at once per document. */
  private async addFreshness(
    hits: SearchHit[],
    chunks: ReadonlyMap<number, ChunkRow>,
    times: ReadonlyMap<number, DocumentTimes>,
  ): Promise<void> {
    const byDocument = new Map<number, Promise<SearchHit['freshness']>>();
    await Promise.all(
      hits.map(async (hit) => {
        if (hit.documentId === null) return;
        const documentTimes = times.get(hit.documentId);
        if (!documentTimes) return;
        let freshness = byDocument.get(hit.documentId);
        if (!freshness) {
          const row = chunks.get(Number(chunkIdOf(hit.key)));
          freshness = freshnessOf(documentTimes, {
            platform: hit.platform,
            path: folderFilePath(hit.platform, row?.url ?? hit.url),
          });
          byDocument.set(hit.documentId, freshness);
        }
        hit.freshness = await freshness;
      }),
    );
  }

  /** The channels' rankings fused, with the rows of the indexed hits: every database read of a search. */
  private async retrieve(
    query: PreparedQuery,
    syntax: QuerySyntax,
    typed: CheckedFilters,
    signal?: AbortSignal,
    deeper?: { depth: number },
  ): Promise<Retrieved> {
    this.sessionReady ??= configureVectorSession(this.db);
    await this.sessionReady;

    const catalog = await this.catalog.read();
    if (catalog.connections.length === 0)
      return { ...NOTHING_FOUND, names: catalog.names, connections: catalog.connections };
    const filters = await resolveNamedFilters(typed, catalog.connections, async () =>
      (await searchFacets(this.db)).knowledgeBases.map((kb) => kb.name),
    );
    const filter = await indexScope(this.db, filters, catalog.connections);
    const searchesIndex = !filter || (filter.connectionIds?.length !== 0 && filter.documentIds?.length !== 0);
    // A deeper pass (a page past the first) reads the index only: live platforms answered the first.
    const { sources, skipped } = liveSources(
      deeper ? [] : (this.options.directSources?.() ?? []),
      filters,
      (id) => catalog.names.get(id) ?? id,
    );

    const [ranking, direct] = await Promise.all([
      searchesIndex
        ? this.rankIndex(query, filter, catalog.active, signal, deeper?.depth)
        : { index: NOTHING_INDEXED, vectorSkip: 'no-space' as const, queryVector: null, minSimilarity: null },
      searchDirectSources(sources, query.text, {
        limit: CHANNEL_DEPTH,
        timeoutMs: (p) => this.directTimeout(p),
        signal,
      }).then((found) => keepLiveHits(found, filters)),
    ]);
    throwIfAborted(signal);
    const { index } = ranking;
    // A vector channel fused at weight 0 is a tail behind the keyword hits (the built-in lexical
    // embedder, search-tuning.ts): with no keyword hit, the query's content words occur nowhere,
    // and what such a vector "finds" is hash noise from its function words and n-grams.
    const space = index.vectorSpace;
    const tailOnly = space !== null && this.options.vectorWeight?.(space) === 0;
    const vector = tailOnly && index.keyword.length === 0 ? [] : index.vector;

    const channels: Partial<Record<Channel, string[]>> = {
      vector: vector.map(chunkKey),
      keyword: index.keyword.map(chunkKey),
    };
    const live = liveRankings(direct.results);
    for (const [connectionId, keys] of live.channels) channels[`direct:${connectionId}`] = keys;
    const fused = reciprocalRankFusion(
      channels,
      RRF_K,
      space && this.options.vectorWeight ? { vector: this.options.vectorWeight(space) } : {},
    );
    const chunks = withPlatforms(index.rows, catalog.platforms);
    const documentIds = [...new Set([...chunks.values()].map((row) => Number(row.document_id)))];
    const [dropped, times] = await Promise.all([
      applyOperators(this.db, syntax, fused, chunks, live.byKey),
      readDocumentTimes(this.db, documentIds),
    ]);
    return {
      fused,
      chunks,
      direct,
      live: live.byKey,
      skipped,
      names: catalog.names,
      index,
      filters,
      scope: filter,
      searchesIndex,
      connections: catalog.connections,
      vectorSkip: ranking.vectorSkip,
      queryVector: ranking.queryVector,
      minSimilarity: ranking.minSimilarity,
      vectorTailDropped: tailOnly && index.keyword.length === 0 && index.vector.length > 0,
      dropped,
      times,
    };
  }

  /** The semantic index's coverage, when the vector channel ran in its space. */
  private coverage(space: SpaceRecord | null): { semantic?: SemanticCoverage } {
    const coverage = space ? this.options.semanticCoverage?.() : null;
    return coverage ? { semantic: coverage } : {};
  }

  private async rerank(
    query: string,
    items: FusedItem<Channel>[],
    chunks: Map<number, ChunkRow>,
    live: Map<string, LiveHitRef>,
    signal?: AbortSignal,
  ): Promise<{ items: FusedItem<Channel>[]; info: SearchResponse['rerank'] }> {
    const chosen = this.options.reranker?.();
    if (!chosen) return { items, info: undefined };
    const result = await rerankCandidates(
      chosen.reranker,
      query,
      items,
      (item) => candidateText(item.key, chunks, live),
      { budgetMs: chosen.budgetMs, signal },
    );
    if (result.info.status === 'applied')
      result.items.slice(0, result.info.depth).forEach((item, index) => {
        item.ranks.rerank = index + 1;
      });
    return result;
  }

  /**
   * Both index channels and the rows of their hits (index-retrieval.ts), with what the vector
   * channel ran with. The query is embedded meanwhile: a remote embedder answers while the keyword
   * SQL runs.
   */
  private async rankIndex(
    query: PreparedQuery,
    scope: ChannelScope | null,
    active: SpaceRecord | null,
    signal?: AbortSignal,
    depth?: number,
  ): Promise<{
    index: IndexRetrieval;
    vectorSkip: VectorSkip;
    queryVector: Float32Array | null;
    minSimilarity: number | null;
  }> {
    const embedder = active ? this.options.queryEmbedder(active) : null;
    if (active && !embedder)
      this.logger.warn('no embedder for the active space; vector channel skipped', { space: active.id });
    const embedding = active && embedder ? this.embedQuery(embedder, active, query.text, signal) : null;
    embedding?.catch(() => {}); // awaited in retrieveFromIndex; this only keeps a failed keyword scan from leaving it unhandled
    const minSimilarity = active ? this.options.minVectorSimilarity?.(active) : undefined;
    const index = await retrieveFromIndex(
      this.db,
      {
        query,
        scope,
        ...(depth ? { depth } : {}),
        vector: active && embedding ? { space: active, queryVector: embedding, minSimilarity } : null,
      },
      this.options.rules ?? ALL_RULES,
    );
    const queryVector = embedding ? await embedding : null;
    return {
      index,
      vectorSkip: !active ? 'no-space' : !embedder ? 'no-embedder' : !queryVector ? 'embed-failed' : null,
      queryVector,
      minSimilarity: minSimilarity ?? null,
    };
  }

  /** The query's vector in `space`, or null (then the vector channel is skipped). */
  private async embedQuery(
    embedder: Embedder,
    space: SpaceRecord,
    text: string,
    signal?: AbortSignal,
  ): Promise<Float32Array | null> {
    const cached = this.queryVectors.get(space.id, text);
    if (cached) return cached;
    try {
      const vector = (await embedder.embed([text], { kind: 'query', signal })).vectors[0];
      if (!vector || vector.length !== space.dimensions) return null;
      this.queryVectors.set(space.id, text, vector);
      return vector;
    } catch (error) {
      if (isAbortError(error)) throw error;
      // A remote embedder being down must not take keyword search with it.
      this.logger.warn('query embedding failed; vector channel skipped', { error });
      return null;
    }
  }

  private directTimeout(platform: Platform): number {
    const option = this.options.directTimeoutMs;
    if (typeof option === 'number') return option;
    return option?.[platform] ?? DEFAULT_DIRECT_TIMEOUT_MS;
  }
}

/** The names of the connections these hits, warnings and skipped sources belong to. */
function namesOf(
  items: readonly { connectionId: string }[],
  names: ReadonlyMap<string, string>,
): Record<string, string> {
  const named: Record<string, string> = {};
  for (const { connectionId } of items) named[connectionId] = names.get(connectionId) ?? connectionId;
  return named;
}

/**
 * The candidates newest first by their document's modified time (freshness.ts modifiedTime); a
 * live hit, which has none, after them; ties keep the relevance order.
 */
function newestFirst(
  ordered: FusedItem<Channel>[],
  chunks: ReadonlyMap<number, ChunkRow>,
  times: ReadonlyMap<number, DocumentTimes>,
): FusedItem<Channel>[] {
  const timeOf = (item: FusedItem<Channel>) => {
    const row = rowOf(item.key, chunks);
    return row ? modifiedTime(times.get(Number(row.document_id))) : -Infinity;
  };
  return ordered
    .map((item, index) => ({ item, index, time: timeOf(item) }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .map((entry) => entry.item);
}

function rowOf(key: string, chunks: ReadonlyMap<number, ChunkRow>): ChunkRow | undefined {
  const id = chunkIdOf(key);
  return id === null ? undefined : chunks.get(id);
}
