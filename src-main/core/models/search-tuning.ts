/**
 * How hybrid search treats the vector channel of an embedding space. One place, used by the app's
 * composition root and by `npm run eval`, so the evaluation measures what users get.
 */
import type { EmbeddingSpace } from '../embedding/embedder';
import type { ModelCatalog } from './catalog';
import { catalogIdOfSpace } from './runtime-specs';

export interface VectorTuning {
  /** Cosine similarity below which a vector hit is dropped as noise. */
  minSimilarity: number;
  /** The vector channel's weight in RRF (the keyword channel's is 1). */
  weight: number;
}

/**
 * A semantic model's vector channel. A local model: RRF at equal weight (no measurement here favours
 * another) and the model's own similarity floor, so a query unrelated to every document gets no
 * vector hits at all. A remote provider: equal weight, no floor (its scale is unknown here).
 */
export function vectorTuning(space: EmbeddingSpace, catalog?: ModelCatalog): VectorTuning {
  const local = catalogIdOfSpace(space);
  const entry = local ? catalog?.find(local) : null;
  if (entry?.kind === 'embedder') return { minSimilarity: entry.similarityFloor, weight: 1 };
  return { minSimilarity: 0, weight: 1 };
}
