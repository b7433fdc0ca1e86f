import { setImmediate } from 'node:timers/promises';
import { throwIfAborted } from '../errors';
import { analyzeText, searchTextOf, type AnalyzedText } from '../text/analyzer';
import type { EmbedOptions, EmbedResult, Embedder, EmbeddingSpace } from './embedder';
import { hashFeatures, type HashFeatureOptions, type HashFeatureWeights } from './hash-features';

/**
 * Feature weights chosen on the `train/` splits of ../shared/eval (scifact, cmrc2018) with
 * bench/quality/tune.ts (best hybrid nDCG@10); the test splits were used only to report. Word pairs
 * and CJK character pairs did not help there, so they are off (weight 0 costs nothing).
 */
export const DEFAULT_HASH_FEATURES: HashFeatureOptions = {
  weights: { word: 1, wordBigram: 0, charNgram: 0.5, cjkChar: 0.5, cjkBigram: 0 },
  charNgramMin: 3,
  charNgramMax: 5,
  prior: { scale: 10, exponent: 0.5 },
  segmentCjk: true,
};

/**
 * Bump when the features change: a different feature set is a different embedding space. The
 * prior comes from gpt-tokenizer's o200k_base table, so upgrading that package can change it too
 * (the fingerprint test in builtin-embedder.test.ts catches both).
 */
const MODEL = 'cairn-hash-v1';

/**
 * The offline embedder: Cairn works with no network, no API key and no model download.
 *
 * What it is: a lexical-fuzzy vector. Each text's analysed words (the keyword channel's stems and
 * ICU-segmented CJK words), character 3–5-grams of Latin words and single CJK characters are hashed
 * with a random sign into `dimensions` buckets ("the hashing trick"), weighted by family, by
 * sublinear term frequency and by a static rarity prior taken from a BPE vocabulary
 * (term-prior.ts: "homocysteine" outweighs "show"), then L2-normalised. Cosine similarity therefore
 * measures shared vocabulary, tolerant of inflection, typos and Chinese segmentation differences
 * ("embedding" ≈ "embeddings", 报销单 ≈ 报销).
 *
 * What it is not: semantic. It knows no synonyms or translations ("car" ≠ "automobile",
 * "invoice" ≠ 发票) and no statistics of the user's corpus, so on its own it ranks below BM25
 * (nDCG@10 on scifact 0.58 vs 0.68, on cmrc2018 0.93 vs 0.99: bench/quality/README.md), and RRF with
 * it does not beat BM25 alone. Its value is offline availability and fuzzy recall; configure a model
 * provider (DashScope, OpenAI, Ollama) for semantic retrieval.
 *
 * Deterministic and pure: the same text always yields the same vector.
 */
export class BuiltinEmbedder implements Embedder {
  readonly space: EmbeddingSpace;
  readonly inProcess = true;
  /** Only the default features can be rebuilt in a worker (workers/worker-factories.ts knows no others). */
  private readonly features: HashFeatureOptions;

  /** @param features for tuning experiments only; non-default features get their own model name. */
  constructor(dimensions = 1024, features: HashFeatureOptions = DEFAULT_HASH_FEATURES) {
    this.features = features;
    const model = features === DEFAULT_HASH_FEATURES ? MODEL : `${MODEL}-custom-${describe(features)}`;
    this.space = { provider: 'builtin', model, dimensions };
  }

  async embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult> {
    const vectors: Float32Array[] = [];
    // The keyword text comes from the same analysis when it segments as the keyword channel does.
    const keywordTexts = options?.keywordTexts && this.features.segmentCjk ? ([] as string[]) : undefined;
    for (const text of texts) {
      // ~30 ms of work between yields keeps the event loop (progress, IPC, abort) responsive.
      if (vectors.length > 0 && vectors.length % 16 === 0) await setImmediate();
      throwIfAborted(options?.signal);
      const analysed = analyzeText(text, { segment: this.features.segmentCjk });
      vectors.push(this.embedAnalysed(analysed));
      keywordTexts?.push(searchTextOf(analysed));
    }
    return keywordTexts ? { vectors, tokens: 0, calls: 0, keywordTexts } : { vectors, tokens: 0, calls: 0 };
  }

  /** Synchronous form for benchmarks and the fake embedding server. */
  embedOne(text: string): Float32Array {
    return this.embedAnalysed(analyzeText(text, { segment: this.features.segmentCjk }));
  }

  private embedAnalysed(analysed: AnalyzedText): Float32Array {
    const vector = new Float32Array(this.space.dimensions);
    hashFeatures(analysed, vector, this.features);
    return vector;
  }
}

function describe(features: HashFeatureOptions): string {
  const w: HashFeatureWeights = features.weights;
  return [
    w.word,
    w.wordBigram,
    w.charNgram,
    w.cjkChar,
    w.cjkBigram,
    features.charNgramMin,
    features.charNgramMax,
    features.prior?.scale ?? 0,
    features.prior?.exponent ?? 0,
    features.segmentCjk ? 's' : 'u',
  ].join('_');
}
