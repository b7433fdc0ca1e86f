/**
 * How to build an embedder inside a worker thread: a factory registered by name in
 * workers/worker-factories.ts and its (cloneable) options. Plain data, so an embedder can say how to
 * rebuild itself elsewhere without knowing the worker machinery.
 */
export interface WorkerRecipe {
  factory: string;
  options: unknown;
}

/** The identity of a vector space: vectors from two spaces are never compared. */
export interface EmbeddingSpace {
  provider: string;
  model: string;
  dimensions: number;
}

export function spaceKey(space: EmbeddingSpace): string {
  return `${space.provider}/${space.model}/${space.dimensions}`;
}

export interface EmbedResult {
  vectors: Float32Array[];
  /** Tokens billed by the provider (0 for the built-in embedder). */
  tokens: number;
  /** Requests made to the provider (1 per batch; 0 for the built-in embedder). */
  calls: number;
  /**
   * Each input's analysed keyword text (analyzer.ts `toSearchText`), when the caller asked for it
   * and the embedder had it at hand (the built-in embedder analyses every input anyway, and a
   * WorkerEmbedder computes it off the main thread). Callers compute what is missing themselves.
   */
  keywordTexts?: string[];
}

export interface EmbedOptions {
  kind?: 'document' | 'query';
  signal?: AbortSignal;
  /** Also return `keywordTexts` if that is cheap here. @default false */
  keywordTexts?: boolean;
}

export interface Embedder {
  readonly space: EmbeddingSpace;
  /**
   * True when embedding is CPU work in this process with no cost per call (the built-in embedder):
   * callers then send what they have at once instead of waiting to fill a batch. @default false
   */
  readonly inProcess?: boolean;
  /**
   * Texts per request and requests in flight that suit this model (a remote provider's batch cap
   * and concurrency): the semantic index sends batches of this size, this many at once, and stores
   * each one as it is answered. Absent: one batch of its own size at a time (a local model).
   */
  readonly batching?: { size: number; concurrency: number };
  /**
   * Embeds texts in order; every vector is L2-normalised and `space.dimensions` long.
   * `kind` lets asymmetric models (DashScope text_type) treat queries and documents differently.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult>;
}
