// PLACEHOLDER until the built-in embedder lands (issue #2): hashed tokens. Interface is final.
import { analyze } from '../text/analyzer';
import type { EmbedResult, Embedder, EmbeddingSpace } from './embedder';

export class BuiltinEmbedder implements Embedder {
  readonly space: EmbeddingSpace;

  constructor(dimensions = 1024) {
    this.space = { provider: 'builtin', model: 'cairn-hash-v0', dimensions };
  }

  async embed(texts: string[]): Promise<EmbedResult> {
    const vectors = texts.map((text) => {
      const v = new Float32Array(this.space.dimensions);
      for (const token of analyze(text)) {
        let h = 2166136261;
        for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
        v[(h >>> 0) % v.length] += 1;
      }
      const norm = Math.hypot(...v) || 1;
      for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
      return v;
    });
    return { vectors, tokens: 0, calls: 0 };
  }
}
