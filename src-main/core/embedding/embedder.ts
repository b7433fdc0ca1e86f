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
}

export interface Embedder {
  readonly space: EmbeddingSpace;
  /**
   * True when embedding is CPU work in this process with no cost per call (the built-in embedder):
   * callers then send what they have at once instead of waiting to fill a batch. @default false
   */
  readonly inProcess?: boolean;
  /**
   * Embeds texts in order; every vector is L2-normalised and `space.dimensions` long.
   * `kind` lets asymmetric models (DashScope text_type) treat queries and documents differently.
   */
  embed(
    texts: string[],
    options?: { kind?: 'document' | 'query'; signal?: AbortSignal },
  ): Promise<EmbedResult>;
}
