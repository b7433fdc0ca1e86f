/**
 * Pooling of an encoder's hidden states into one vector per sequence, as each model card says:
 * CLS (bge: `1_Pooling/config.json` pooling_mode_cls_token), mean over the attention mask
 * (multilingual-e5), or the last attended token (decoder embedders such as Qwen3-Embedding).
 */
import type { Pooling } from './runtime-spec';

export function poolHidden(
  hidden: Float32Array,
  dims: readonly number[],
  mask: BigInt64Array,
  how: Pooling,
): Float32Array[] {
  const [size = 0, width = 0, dim = 0] = dims;
  const out: Float32Array[] = [];
  for (let row = 0; row < size; row++) {
    const vector = new Float32Array(dim);
    const base = row * width;
    if (how === 'cls') vector.set(hidden.subarray(base * dim, base * dim + dim));
    else if (how === 'last') {
      let last = 0;
      for (let i = 0; i < width; i++) if (mask[base + i] === 1n) last = i;
      vector.set(hidden.subarray((base + last) * dim, (base + last + 1) * dim));
    } else {
      let count = 0;
      for (let i = 0; i < width; i++) {
        if (mask[base + i] !== 1n) continue;
        count++;
        const offset = (base + i) * dim;
        for (let h = 0; h < dim; h++) vector[h]! += hidden[offset + h]!;
      }
      for (let h = 0; h < dim; h++) vector[h]! /= Math.max(1, count);
    }
    out.push(vector);
  }
  return out;
}

/** Already pooled output ([batch, dim], e.g. a `sentence_embedding` output). */
export function rowsOf(data: Float32Array, dims: readonly number[]): Float32Array[] {
  const [size = 0, dim = 0] = dims;
  return Array.from({ length: size }, (_, row) => data.slice(row * dim, (row + 1) * dim));
}

export function l2Normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** The mean of several vectors (the windows of one text), normalised when asked. */
export function meanOf(vectors: Float32Array[], normalize: boolean): Float32Array {
  const dim = vectors[0]?.length ?? 0;
  const mean = new Float32Array(dim);
  for (const vector of vectors) for (let h = 0; h < dim; h++) mean[h]! += vector[h]! / vectors.length;
  return normalize ? l2Normalize(mean) : mean;
}
