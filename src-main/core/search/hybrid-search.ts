/**
 * Hybrid retrieval: vector top-30 (active embedding space only) + BM25 keyword top-30 over the
 * local index, plus live results of direct-mode connections, fused by RRF (k=60) into top-K.
 * Only connections in 'rag' mode contribute index hits: a connection switched to direct keeps its
 * index on disk but is searched live.
 */
import type {
  Platform,
  SearchDocument,
  SearchFacets,
  SearchHit,
  SearchRequest,
  SearchResponse,
} from '@shared/models';
import type { Db } from '../db/database';
import { accessGate } from '../db/access-gate';
import type { Embedder, EmbeddingSpace } from '../embedding/embedder';
import { isAbortError, throwIfAborted } from '../errors';
import type { SpaceRecord } from '../index/embedding-spaces';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import {
  DEFAULT_DIRECT_TIMEOUT_MS,
  searchDirectSources,
  type DirectResult,
  type DirectSearchSource,
} from './direct-channel';
import { chunkIdOf, chunkKey, directKey } from './result-keys';
import {
  CHANNEL_DEPTH,
  configureVectorSession,
  type ChannelScope,
  keywordChannel,
  keywordScan,
} from './index-channels';
import { retrieveFromIndex, type IndexedChunkRow, type IndexRetrieval } from './index-retrieval';
import { clampK, prepareQuery, type PreparedQuery } from './query-text';
import { checkFilters, indexScope, type CheckedFilters } from './search-filters';
import { searchFacets } from './search-facets';
import { keepLiveHits, liveSources } from './live-filters';
import { groupByDocument } from './document-groups';
import { RRF_K, reciprocalRankFusion, topKKeepingChannels, type FusedItem } from './rrf';
import type { SearchService } from './search-service';
import { rerankCandidates, type Reranker } from './reranking';
import { slug } from 'github-slugger';
import { phraseAdjuster } from './phrase-rerank';
import { QueryVectorCache } from './query-vector-cache';
import { SearchCatalog, type SearchCatalogSnapshot } from './search-catalog';
import { SpaceSizes } from './space-size';

export interface HybridSearchOptions {
  db: Db;
  /** The embedder for a space, or null when it is not available (then the vector channel is skipped). */
  queryEmbedder: (space: EmbeddingSpace) => Embedder | null;
  /** Direct-mode connections to search live; read on every search since modes change. */
  directSources?: () => DirectSearchSource[];
  /** Cosine similarity below which a vector hit is dropped as noise, per space. @default no floor */
  minVectorSimilarity?: (space: EmbeddingSpace) => number;
  /** The vector channel's weight in RRF, per space (the keyword channel's is 1). @default 1 */
  vectorWeight?: (space: EmbeddingSpace) => number;
  /**
   * BM25 hits added to the vector channel's candidates before exact re-scoring, per space and its
   * size in vectors (estimated, space-size.ts). @default 0
   */
  lexicalCandidates?: (space: EmbeddingSpace, vectors: number) => number;
  /** Chunks of one document kept in the results (its best ones). @default 3 */
  maxHitsPerDocument?: number;
  /** The local reranker and its time budget, read on every search; null = no reranking. @default none */
  reranker?: () => { reranker: Reranker; budgetMs: number } | null;
  /** Applied to the messages of direct-search warnings (a platform may quote a credential back). @default none */
  redact?: (text: string) => string;
  /** @default 3000 ms for every platform */
  directTimeoutMs?: number | Partial<Record<Platform, number>>;
  logger?: Logger;
}

interface ChunkRow extends IndexedChunkRow {
  /** From the search catalog (the connection's row is not joined per search). */
  platform: Platform;
}

const NOTHING_INDEXED = {
  vector: { ids: [] as number[], space: null },
  keyword: [] as number[],
  keywordHoldsDistinctive: false,
  rows: new Map<number, IndexedChunkRow>(),
};

type Channel = 'vector' | 'keyword' | 'rerank' | `direct:${string}`;

const DEFAULT_MAX_HITS_PER_DOCUMENT = 3;

/** The document a fused item belongs to: an indexed chunk's document, or the live hit itself. */
function documentOf(item: { key: string }, chunks: Map<number, ChunkRow>): string {
  const id = chunkIdOf(item.key);
  const row = id === null ? undefined : chunks.get(id);
  return row ? `document:${row.document_id}` : item.key;
}

/** Drops a document's chunks beyond its best `max`, keeping the fused order. */
function capPerDocument<T extends { key: string }>(
  ranked: T[],
  chunks: Map<number, ChunkRow>,
  max: number,
): T[] {
  const seen = new Map<string, number>();
  return ranked.filter((item) => {
    const id = chunkIdOf(item.key);
    const row = id === null ? undefined : chunks.get(id);
    if (!row) return true;
    const documentKey = String(row.document_id);
    const count = (seen.get(documentKey) ?? 0) + 1;
    seen.set(documentKey, count);
    return count <= Math.max(1, max);
  });
}

export class HybridSearch implements SearchService {
  private readonly db: Db;
  /** Connections and the active space, kept between searches (search-catalog.ts). */
  private readonly catalog: SearchCatalog;
  private readonly logger: Logger;
  private sessionReady: Promise<void> | null = null;
  private readonly queryVectors = new QueryVectorCache();
  private readonly spaceSizes: SpaceSizes;

  constructor(private readonly options: HybridSearchOptions) {
    this.db = options.db;
    this.catalog = new SearchCatalog(options.db);
    this.spaceSizes = new SpaceSizes(options.db);
    this.logger = options.logger ?? silentLogger();
  }

  /** What the filter bar offers (search-facets.ts). */
  facets(): Promise<SearchFacets> {
    return searchFacets(this.db);
  }

  async search(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> {
    const started = performance.now();
    const filters = checkFilters(request ?? { query: '' });
    const query = prepareQuery(request?.query);
    if (!query)
      return { hits: [], documents: [], warnings: [], tookMs: Math.round(performance.now() - started) };
    const k = clampK(request.k);
    // One read for every statement of the search: a sync's next write waits until it is done
    // instead of slipping in between its statements (access-gate.ts).
    const { fused, chunks, direct, directByKey, skipped } = await accessGate(this.db).read(() =>
      this.retrieve(query, filters, signal),
    );
    const ranked = rerankByPhrase(fused, chunks, query.phrases);
    // Every direct-mode connection that answered shows its best hit (see topKKeepingChannels), and
    // no one document fills the page: its best few chunks stand for it.
    const capped = capPerDocument(
      ranked,
      chunks,
      this.options.maxHitsPerDocument ?? DEFAULT_MAX_HITS_PER_DOCUMENT,
    );
    // The fused top-30 reordered by the cross-encoder (when installed and within budget), before the top-k cut.
    const { items: diverse, info: rerank } = await this.rerank(
      query.text,
      capped,
      chunks,
      directByKey,
      signal,
    );
    const guaranteed = direct.results.map((result) => `direct:${result.source.connectionId}` as Channel);
    const toHit = (item: FusedItem<Channel>) => fusedHit(item, chunks, directByKey);
    const hits = topKKeepingChannels(diverse, k, guaranteed)
      .map(toHit)
      .filter((hit) => hit !== null);
    // The same candidates, one per document: the top k documents, each with its best chunks.
    const groups = new Map(
      groupByDocument(diverse, (item) => documentOf(item, chunks)).map((group) => [group.best.key, group]),
    );
    const documents: SearchDocument[] = [];
    for (const best of topKKeepingChannels(
      [...groups.values()].map((group) => group.best),
      k,
      guaranteed,
    )) {
      const bestHit = toHit(best);
      if (bestHit)
        documents.push({
          best: bestHit,
          more: groups
            .get(best.key)!
            .more.map(toHit)
            .filter((hit) => hit !== null),
        });
    }
    const redact = this.options.redact;
    const warnings = redact
      ? direct.warnings.map((w) => ({ ...w, error: { ...w.error, message: redact(w.error.message) } }))
      : direct.warnings;
    return {
      hits,
      documents,
      warnings,
      tookMs: Math.round(performance.now() - started),
      ...(rerank ? { rerank } : {}),
      ...(skipped.length > 0 ? { liveSkipped: skipped } : {}),
    };
  }

  /** The channels' rankings fused, with the rows of the indexed hits: every database read of a search. */
  private async retrieve(query: PreparedQuery, filters: CheckedFilters, signal?: AbortSignal) {
    this.sessionReady ??= configureVectorSession(this.db);
    await this.sessionReady;

    const catalog = await this.catalog.read();
    const filter = await indexScope(this.db, filters, catalog.connections);
    const searchesIndex = !filter || (filter.connectionIds?.length !== 0 && filter.documentIds?.length !== 0);
    const { sources, skipped } = liveSources(this.options.directSources?.() ?? [], filters);

    // (A keyword hit proves a distinctive word occurs when every content term is one: no check then.)
    const mixed =
      query.distinctive.length > 0 &&
      query.keywordText.split(' ').some((t) => !query.distinctive.includes(t));
    const [{ vector, keyword, keywordHoldsDistinctive, rows }, direct] = await Promise.all([
      searchesIndex
        ? this.indexRankings(query, filter, catalog.active, mixed ? query.distinctive : [], signal)
        : Promise.resolve(NOTHING_INDEXED),
      searchDirectSources(sources, query.text, {
        limit: CHANNEL_DEPTH,
        timeoutMs: (p) => this.directTimeout(p),
        signal,
      }).then((found) => keepLiveHits(found, filters)),
    ]);
    throwIfAborted(signal);
    // A vector channel fused at weight 0 is a tail behind the keyword hits (the built-in lexical
    // embedder, search-tuning.ts): with no keyword hit, the query's content words occur nowhere,
    // and what such a vector "finds" is hash noise from its function words and n-grams.
    const tailOnly = vector.space !== null && this.options.vectorWeight?.(vector.space) === 0;
    if (tailOnly && keyword.length === 0) vector.ids = [];
    // The query names words (xyzzy, an identifier, a number) that no chunk holds: nothing matches,
    // even where its other words ("不存在的词") are common ones. Usually a keyword hit holds one
    // (checked in the index statement); else one BM25 query over those words alone.
    if (
      keyword.length > 0 &&
      mixed &&
      !keywordHoldsDistinctive &&
      (await keywordChannel(this.db, query.distinctive.join(' '), filter)).length === 0
    ) {
      keyword.length = 0;
      if (tailOnly) vector.ids = [];
    }

    const channels: Partial<Record<Channel, string[]>> = {
      vector: vector.ids.map(chunkKey),
      keyword: keyword.map(chunkKey),
    };
    const directByKey = new Map<string, { result: DirectResult; index: number }>();
    for (const result of direct.results) {
      const keys = result.hits.map((hit, index) => {
        const key = directKey(result.source.connectionId, hit.externalId);
        if (!directByKey.has(key)) directByKey.set(key, { result, index });
        return key;
      });
      channels[`direct:${result.source.connectionId}`] = keys;
    }
    const fused = reciprocalRankFusion(
      channels,
      RRF_K,
      vector.space && this.options.vectorWeight ? { vector: this.options.vectorWeight(vector.space) } : {},
    );
    const chunks = withPlatforms(rows, catalog);
    return { fused, chunks, direct, directByKey, skipped };
  }

  private async rerank(
    query: string,
    items: FusedItem<Channel>[],
    chunks: Map<number, ChunkRow>,
    directByKey: Map<string, { result: DirectResult; index: number }>,
    signal?: AbortSignal,
  ): Promise<{ items: FusedItem<Channel>[]; info: SearchResponse['rerank'] }> {
    const chosen = this.options.reranker?.();
    if (!chosen) return { items, info: undefined };
    const textOf = (item: FusedItem<Channel>) => {
      const row = item.key.startsWith('chunk:')
        ? chunks.get(Number(item.key.slice('chunk:'.length)))
        : undefined;
      if (row) return [row.title, row.heading_path, row.content].filter(Boolean).join('\n');
      const direct = directByKey.get(item.key);
      const hit = direct?.result.hits[direct.index];
      return hit ? [hit.title, hit.snippet ?? ''].join('\n') : null;
    };
    const result = await rerankCandidates(chosen.reranker, query, items, textOf, {
      budgetMs: chosen.budgetMs,
      signal,
    });
    if (result.info.status === 'applied')
      result.items.slice(0, result.info.depth).forEach((item, index) => {
        item.ranks.rerank = index + 1;
      });
    return result;
  }

  /**
   * Both index channels and the rows of their hits. The keyword scans run first and also yield the
   * vector channel's lexical candidates (index-channels.ts); the query is embedded meanwhile (a
   * remote embedder answers while the keyword SQL runs); then one statement does the rest
   * (index-retrieval.ts).
   */
  private async indexRankings(
    query: PreparedQuery,
    filter: ChannelScope | null,
    active: SpaceRecord | null,
    distinctive: readonly string[],
    signal?: AbortSignal,
  ): Promise<Omit<IndexRetrieval, 'vector'> & { vector: { ids: number[]; space: SpaceRecord | null } }> {
    const embedder = active ? this.options.queryEmbedder(active) : null;
    if (active && !embedder)
      this.logger.warn('no embedder for the active space; vector channel skipped', { space: active.id });
    const embedding = active && embedder ? this.embedQuery(embedder, active, query.text, signal) : null;
    embedding?.catch(() => {}); // awaited below; this only keeps a failed keyword scan from leaving it unhandled
    const lexical = this.options.lexicalCandidates;
    const depth = active && embedding && lexical ? lexical(active, await this.spaceSizes.vectors(active)) : 0;
    const content = await keywordScan(this.db, query.keywordText, filter, depth);
    const framed =
      query.frameKeywordText && content.ids.length > 0
        ? await keywordScan(this.db, query.frameKeywordText, filter)
        : null;
    const vector = await embedding;
    const space = active && vector ? active : null;
    const found = await retrieveFromIndex(this.db, {
      content,
      framed,
      vector: space
        ? {
            space,
            queryVector: vector!,
            scope: filter,
            options: {
              minSimilarity: this.options.minVectorSimilarity?.(space),
              candidates: content.candidates,
            },
          }
        : null,
      distinctive,
    });
    return { ...found, vector: { ids: found.vector, space } };
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

/** The rows with their connection's platform; a row whose connection the catalog does not list is left out (it is being removed). */
function withPlatforms(
  rows: Map<number, IndexedChunkRow>,
  catalog: SearchCatalogSnapshot,
): Map<number, ChunkRow> {
  const found = new Map<number, ChunkRow>();
  for (const [id, row] of rows) {
    const platform = catalog.platforms.get(row.connection_id);
    if (platform) found.set(id, { ...row, platform });
  }
  return found;
}

/** Exact phrases, headings and navigation files adjust the fused scores (phrase-rerank.ts). */
function rerankByPhrase<C extends string>(
  fused: FusedItem<C>[],
  chunks: Map<number, ChunkRow>,
  phrases: readonly string[],
): FusedItem<C>[] {
  const adjustment = phraseAdjuster(phrases);
  const adjusted = fused.map((item, index) => {
    const chunkId = chunkIdOf(item.key);
    const row = chunkId === null ? undefined : chunks.get(chunkId);
    return { item: row ? { ...item, score: item.score + adjustment(row) } : item, index };
  });
  adjusted.sort((a, b) => b.item.score - a.item.score || a.index - b.index);
  return adjusted.map((entry) => entry.item);
}

/** The hit a fused key stands for (null if its chunk vanished between ranking and loading). */
function fusedHit(
  item: FusedItem<Channel>,
  chunks: Map<number, ChunkRow>,
  directByKey: Map<string, { result: DirectResult; index: number }>,
): SearchHit | null {
  const ranks: SearchHit['ranks'] = {};
  for (const [channel, rank] of Object.entries(item.ranks) as [Channel, number][]) {
    if (channel === 'vector' || channel === 'keyword' || channel === 'rerank') ranks[channel] = rank;
    else ranks.direct = rank;
  }
  const chunkId = chunkIdOf(item.key);
  if (chunkId !== null) {
    const row = chunks.get(chunkId);
    return row ? indexHit(item.key, row, item.score, ranks) : null;
  }
  const entry = directByKey.get(item.key);
  return entry ? directHit(item.key, entry.result, entry.index, item.score, ranks) : null;
}

function indexHit(key: string, row: ChunkRow, score: number, ranks: SearchHit['ranks']): SearchHit {
  return {
    key,
    source: 'index',
    connectionId: row.connection_id,
    platform: row.platform,
    documentId: Number(row.document_id),
    externalId: row.external_id,
    title: row.title,
    knowledgeBase: row.knowledge_base,
    url: sectionUrl(row),
    headingPath: row.heading_path,
    text: row.content,
    charStart: row.char_start,
    charEnd: row.char_end,
    ...(row.location ? { location: row.location } : {}),
    score,
    ranks,
  };
}

/**
 * The hit's link pointed at its section where the format allows: a local Markdown file gets the
 * GitHub-style anchor of the chunk's innermost heading (file.md#heading-anchor, what Markdown
 * viewers and editors resolve). Platform links stay as they are: their block anchors are not
 * stored. The link opener strips the anchor to open the file (core/app/open-external.ts).
 */
export function sectionUrl(row: Pick<ChunkRow, 'url' | 'platform' | 'heading_path'>): string | null {
  if (!row.url || row.platform !== 'folder' || !/\.(?:md|markdown|mdx)$/i.test(row.url)) return row.url;
  const heading = row.heading_path.split(' > ').at(-1)?.trim();
  const anchor = heading ? slug(heading) : '';
  return anchor ? `${row.url}#${anchor}` : row.url;
}

function directHit(
  key: string,
  result: DirectResult,
  index: number,
  score: number,
  ranks: SearchHit['ranks'],
): SearchHit {
  const hit = result.hits[index]!;
  return {
    key,
    source: 'direct',
    connectionId: result.source.connectionId,
    platform: result.source.platform,
    documentId: null,
    externalId: String(hit.externalId),
    title: hit.title || hit.externalId,
    knowledgeBase: hit.knowledgeBase || result.source.knowledgeBaseFallback,
    url: hit.url ?? null,
    headingPath: '',
    text: hit.snippet ?? '',
    charStart: null,
    charEnd: null,
    score,
    ranks,
  };
}
