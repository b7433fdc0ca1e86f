/**
 * Search: direct-mode connections as live sources (following the connection list) and the hybrid
 * search over the index, with each space's vector tuning from the model catalogue and the reranker
 * in effect.
 */
import { DirectSources } from '../connections/direct-sources';
import { vectorTuning } from '../models/search-tuning';
import { HybridSearch } from '../search/hybrid-search';
import type { CreateCairnOptions } from './cairn';
import type { Base } from './wire-base';
import type { ConnectionsWiring } from './wire-connections';
import type { EmbeddingWiring } from './wire-embedding';

export async function wireSearch(
  base: Base,
  connections: ConnectionsWiring,
  embedding: EmbeddingWiring,
  options: CreateCairnOptions,
): Promise<HybridSearch> {
  const { logger } = base;
  const direct = new DirectSources({
    connectors: connections.connectors,
    lifecycle: connections.lifecycle,
    events: base.events,
    logger: logger.child('direct'),
  });
  // Only the direct-mode rows: the full list counts every connection's documents and chunks, work
  // each start paid for nothing (DirectSources keeps the direct ones alone).
  direct.update(await connections.repository.list({ mode: 'direct' }));
  base.disposers.push(() => direct.dispose());
  const catalog = embedding.models.local.catalog;
  return new HybridSearch({
    db: base.db,
    connections: connections.repository,
    queryEmbedder: (space) => embedding.embeddings.forSpace(space),
    minVectorSimilarity: (space) => vectorTuning(space, catalog).minSimilarity,
    vectorWeight: (space) => vectorTuning(space, catalog).weight,
    semanticCoverage: () => embedding.embeddings.coverage(),
    reranker: () => embedding.reranker(),
    directSources: () => direct.list(),
    redact: base.redact,
    ...(options.directTimeoutMs ? { directTimeoutMs: options.directTimeoutMs } : {}),
    logger: logger.child('search'),
  });
}
