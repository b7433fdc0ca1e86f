/**
 * How hybrid search treats the vector channel of an embedding space. One place, used by the app's
 * composition root and by `npm run eval`, so the evaluation measures what users get.
 */
import type { EmbeddingSpace } from '../embedding/embedder';
import type { ModelCatalog } from '../models/catalog';
import { catalogIdOfSpace } from '../models/runtime-specs';

export interface VectorTuning {
  /** Cosine similarity below which a vector hit is dropped as noise. */
  minSimilarity: number;
  /** The vector channel's weight in RRF (the keyword channel's is 1). */
  weight: number;
}

/**
 * The built-in embedder hashes lexical features: a chunk that shares no feature with the query
 * lands near cosine 0 (collisions scatter it either side), so below 0.1 a hit is noise (no cost on
 * either collection's train split). Its ranking is a noisier copy of BM25's, so on both train
 * splits every vector weight above 0 lowered nDCG@10 (`npm run eval -- --fusion-study`): at weight
 * 0 the keyword channel orders the results and vector-only chunks follow as a tail, catching what
 * the keywords miss (typos, variants) without displacing a keyword hit. Semantic providers fuse at
 * equal weight, as RRF intends.
 */
export function vectorTuning(space: EmbeddingSpace, catalog?: ModelCatalog): VectorTuning {
  if (space.provider === 'builtin') return { minSimilarity: 0.1, weight: 0 };
  // A local semantic model: RRF at equal weight (no measurement here favours another) and the
  // model's own similarity floor, so a query unrelated to every document gets no vector hits at all.
  const local = catalogIdOfSpace(space);
  const entry = local ? catalog?.find(local) : null;
  if (entry?.kind === 'embedder') return { minSimilarity: entry.similarityFloor, weight: 1 };
  return { minSimilarity: 0, weight: 1 };
}
