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
  /**
   * BM25 top hits of the query added to the vector channel's HNSW candidates before exact
   * re-scoring (vector-channel.ts), for a space of `vectors` vectors: 0 = HNSW only.
   */
  lexicalCandidates: (vectors: number) => number;
}

/**
 * A lexical embedder's nearest neighbours share the query's words, and its space has the
 * near-orthogonal topic clusters that trap HNSW: with the BM25 top 300 beside the HNSW top 30,
 * recall@10 against an exact scan rose from 0.79 to 0.97 on the bench's 10k chunks. The share of
 * the index that shares the query's words grows with the index, so a fixed count does not hold:
 * at 100k chunks the top 300 held 12% of the exact top 10 and the top 3,000 87% (recall 0.629 →
 * 0.968). So the count is a share of the space (LEXICAL_SHARE), never below LEXICAL_MIN and capped
 * at LEXICAL_MAX, the largest measured (docs/decisions/vector-index.md). Semantic spaces cluster
 * the way HNSW expects (recall 1.000 on clustered data) and keep HNSW alone.
 */
export const LEXICAL_MIN = 300;
export const LEXICAL_SHARE = 0.03;
export const LEXICAL_MAX = 3000;

/** The BM25 candidates re-scored beside the HNSW walk for a lexical space of `vectors` vectors. */
export function lexicalCandidateCount(vectors: number): number {
  const share = Number.isFinite(vectors) ? Math.round(vectors * LEXICAL_SHARE) : 0;
  return Math.min(LEXICAL_MAX, Math.max(LEXICAL_MIN, share));
}
const NONE = () => 0;

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
  if (space.provider === 'builtin')
    return { minSimilarity: 0.1, weight: 0, lexicalCandidates: lexicalCandidateCount };
  // A local semantic model: RRF at equal weight (no measurement here favours another) and the
  // model's own similarity floor, so a query unrelated to every document gets no vector hits at all.
  const local = catalogIdOfSpace(space);
  const entry = local ? catalog?.find(local) : null;
  if (entry?.kind === 'embedder')
    return { minSimilarity: entry.similarityFloor, weight: 1, lexicalCandidates: NONE };
  return { minSimilarity: 0, weight: 1, lexicalCandidates: NONE };
}
