/**
 * An Embedder that answers query embeddings from vectors computed earlier in batches, so the
 * evaluation can run thousands of queries through the app's HybridSearch (which embeds one query
 * at a time) without one embedder call per query. Texts it has not seen go to the real embedder.
 */
import type { EmbedResult, Embedder, EmbeddingSpace } from '../src-main/core/embedding/embedder';

export class PrecomputedQueryEmbedder implements Embedder {
  private readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly inner: Embedder) {}

  get space(): EmbeddingSpace {
    return this.inner.space;
  }

  /** Embeds `texts` as queries in one call and keeps their vectors. */
  async precompute(texts: string[]): Promise<void> {
    const fresh = [...new Set(texts)].filter((t) => !this.vectors.has(t));
    if (fresh.length === 0) return;
    const { vectors } = await this.inner.embed(fresh, { kind: 'query' });
    fresh.forEach((text, i) => this.vectors.set(text, vectors[i]!));
  }

  vectorOf(text: string): Float32Array | undefined {
    return this.vectors.get(text);
  }

  async embed(
    texts: string[],
    options?: { kind?: 'document' | 'query'; signal?: AbortSignal },
  ): Promise<EmbedResult> {
    if (options?.kind === 'query' && texts.every((t) => this.vectors.has(t))) {
      return { vectors: texts.map((t) => this.vectors.get(t)!), tokens: 0, calls: 0 };
    }
    return this.inner.embed(texts, options);
  }
}
