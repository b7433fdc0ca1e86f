import { throwIfAborted } from '../errors';
import type { EmbedResult, Embedder, EmbeddingSpace } from './embedder';
import { hashFeatures, type HashFeatureOptions, type HashFeatureWeights } from './hash-features';

/**
 * Feature weights tuned on the `train/` splits of ../shared/eval (scifact, cmrc2018) with
 * bench/quality/quick-eval.ts; the test splits were used only to report.
 */
export const DEFAULT_HASH_FEATURES: HashFeatureOptions = {
  weights: { word: 1, wordBigram: 0.5, charNgram: 0.25, cjkChar: 0.5, cjkBigram: 1 },
  charNgramMin: 3,
  charNgramMax: 5,
  prior: { scale: 10, exponent: 0.5 },
};

/** Bump when the features change: a different feature set is a different embedding space. */
const MODEL = 'cairn-hash-v1';

/**
 * The offline embedder: Cairn works with no network, no API key and no model download.
 *
 * What it is: a lexical-fuzzy vector. Each text's analysed words, word pairs, character 3–5-grams
 * of Latin words, and CJK characters and character pairs are hashed with a random sign into
 * `dimensions` buckets, weighted by family and by sublinear term frequency, then L2-normalised.
 * Cosine similarity therefore measures shared vocabulary, tolerant of inflection, typos and
 * Chinese segmentation differences (e.g. "embedding" ≈ "embeddings", 报销单 ≈ 报销).
 *
 * What it is not: semantic. It knows no synonyms or translations ("car" ≠ "automobile",
 * "invoice" ≠ 发票) and has no corpus statistics (no IDF), so on its own it ranks below BM25; its
 * value is as the fuzzy second channel of hybrid search. Configure a model provider (DashScope,
 * OpenAI, Ollama) for real semantic retrieval.
 *
 * Deterministic and pure: the same text always yields the same vector.
 */
export class BuiltinEmbedder implements Embedder {
  readonly space: EmbeddingSpace;
  private readonly features: HashFeatureOptions;

  /** @param features for tuning experiments only; non-default features get their own model name. */
  constructor(dimensions = 1024, features: HashFeatureOptions = DEFAULT_HASH_FEATURES) {
    this.features = features;
    const model = features === DEFAULT_HASH_FEATURES ? MODEL : `${MODEL}-custom-${describe(features)}`;
    this.space = { provider: 'builtin', model, dimensions };
  }

  async embed(texts: string[], options?: { kind?: 'document' | 'query'; signal?: AbortSignal }): Promise<EmbedResult> {
    const vectors: Float32Array[] = [];
    for (const text of texts) {
      throwIfAborted(options?.signal);
      vectors.push(this.embedOne(text));
    }
    return { vectors, tokens: 0, calls: 0 };
  }

  /** Synchronous form for benchmarks and the fake embedding server. */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.space.dimensions);
    hashFeatures(text, vector, this.features);
    return vector;
  }
}

function describe(features: HashFeatureOptions): string {
  const w: HashFeatureWeights = features.weights;
  return [w.word, w.wordBigram, w.charNgram, w.cjkChar, w.cjkBigram, features.charNgramMin, features.charNgramMax, features.prior?.scale ?? 0, features.prior?.exponent ?? 0].join('_');
}
