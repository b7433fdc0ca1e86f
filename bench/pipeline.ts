/**
 * The real indexing pipeline, assembled the way the app assembles it (SyncEngine → chunker →
 * analysis → PgDocumentStore over PGlite; with a semantic model, its space and the background
 * semantic index that embeds what the sync wrote), for one in-memory connection. Shared by the
 * speed benchmark and the quality evaluation so both measure the same code.
 */
import type { Chunk } from '../src-main/core/chunking/chunker';
import { openDatabase, type Db } from '../src-main/core/db/database';
import type { Embedder } from '../src-main/core/embedding/embedder';
import { isKeywordOnly } from '../src-main/core/embedding/create-embedder';
import type { EmbeddingProviderKind } from '@shared/models';
import type { DocumentStore } from '../src-main/core/index/document-store';
import { ensureActiveSpace, readSpaces } from '../src-main/core/index/embedding-spaces';
import { silentLogger } from '../src-main/core/logging/logger';
import { SemanticIndexBuilder } from '../src-main/core/spaces/semantic-index';
import { PgDocumentStore } from '../src-main/core/index/pg-document-store';
import { loadCatalog } from '../src-main/core/models/catalog';
import { HybridSearch } from '../src-main/core/search/hybrid-search';
import type { RankingRules } from '../src-main/core/search/ranking-rules';
import { vectorTuning } from '../src-main/core/models/search-tuning';
import { SyncEngine } from '../src-main/core/sync/sync-engine';
import { SyncLock } from '../src-main/core/sync/sync-lock';

export const CONNECTION_ID = 'bench';

export interface IndexPipeline {
  db: Db;
  store: PgDocumentStore;
  engine: SyncEngine;
}

/**
 * Opens (or creates) the index with one RAG connection, and with `embedder` (a semantic model) as
 * its active space; none (the default configuration): keyword search only.
 */
export async function openPipeline(options: {
  dataDir?: string;
  embedder?: Embedder | null;
  wrapStore?: (store: PgDocumentStore) => DocumentStore;
  chunk?: (markdown: string) => Chunk[];
  /** Documents in flight in the sync. @default the engine's (4) */
  fetchConcurrency?: number;
}): Promise<IndexPipeline> {
  const db = await openDatabase(options.dataDir ? { dataDir: options.dataDir } : {});
  await db.query(
    `INSERT INTO connections (id, platform, name, mode) VALUES ($1, 'folder', $1, 'rag') ON CONFLICT (id) DO NOTHING`,
    [CONNECTION_ID],
  );
  if (options.embedder) {
    const { matches } = await ensureActiveSpace(db, options.embedder.space);
    if (!matches)
      throw new Error(`The index at ${options.dataDir ?? 'memory'} holds another embedding space.`);
  }
  const store = new PgDocumentStore(db);
  const engine = new SyncEngine({
    db,
    store: options.wrapStore?.(store) ?? store,
    lock: new SyncLock(db),
    chunk: options.chunk,
    fetchConcurrency: options.fetchConcurrency,
  });
  return { db, store, engine };
}

/**
 * Embeds what the queue holds into the active space with `embedder`, through the app's semantic
 * index builder, and returns once it has caught up (or stopped after a failure it waits on).
 */
export async function buildSemanticIndex(db: Db, embedder: Embedder): Promise<{ vectors: number }> {
  const { active } = await readSpaces(db);
  if (!active) throw new Error('No active embedding space to fill.');
  let done = 0;
  const builder = new SemanticIndexBuilder({
    db,
    logger: silentLogger(),
    onProgress: (progress) => (done = progress.done),
  });
  await builder.start(active, embedder);
  await builder.whenIdle();
  const failed = builder.current().error;
  await builder.stop();
  if (failed) throw new Error(`The semantic index stopped: ${failed}`);
  return { vectors: done };
}

/**
 * The query embedder the app searches with under `embedder`'s settings: none for the built-in
 * lexical embedder (the app writes no vectors for it and searches by keyword alone,
 * docs/decisions/keyword-only-default.md), the model itself otherwise. The eval's "hybrid" rows and
 * the rule ablation go through this, so they measure the search users get; the lexical vectors the
 * eval still builds are scored only as the study channel "vector".
 */
export function appQueryEmbedder<E extends Embedder>(embedder: E): E | null {
  return isKeywordOnly({ provider: embedder.space.provider as EmbeddingProviderKind }) ? null : embedder;
}

/**
 * The app's search over the index, answering queries with `embedder` (or precomputed vectors);
 * null: no query embedder, so the vector channel is skipped (keyword search as the app runs it);
 * `rules` only for the rule ablation (rule-ablation.ts), the app's otherwise.
 */
export function hybridSearchFor(
  db: Db,
  embedder: Embedder | null,
  rules?: Readonly<RankingRules>,
): HybridSearch {
  // The app's own tuning of the vector channel (similarity floor, fusion weight) and its catalogue
  // (built-in + CAIRN_MODEL_CATALOG, for local models' floors), so numbers are what users get.
  const catalog = loadCatalog(process.env);
  return new HybridSearch({
    db,
    queryEmbedder: (space) =>
      embedder && space.model === embedder.space.model && space.provider === embedder.space.provider
        ? embedder
        : null,
    minVectorSimilarity: (space) => vectorTuning(space, catalog).minSimilarity,
    vectorWeight: (space) => vectorTuning(space, catalog).weight,
    ...(rules ? { rules } : {}),
  });
}
