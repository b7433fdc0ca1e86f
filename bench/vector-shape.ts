/**
 * A random-weight transformer's pooled outputs (bench/model-vectors.ts) share one dominant
 * direction: any two texts sit at cosine ~0.999. Real models spread their vectors; multilingual-e5's
 * model card says its cosine scores "distribute around 0.7 to 1.0". So the outputs are centred on
 * the documents' mean (what differs between texts is kept, the shared direction removed) and given
 * back a common component of the size that puts two random texts at `meanCosine` (null: centred
 * only), then normalised.
 */
export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

export function shapeVectors(
  documents: Float32Array[],
  queries: Float32Array[],
  meanCosine: number | null,
  width: number,
): { documents: Float32Array[]; queries: Float32Array[] } {
  const mean = new Float32Array(width);
  for (const v of documents) for (let i = 0; i < width; i++) mean[i]! += v[i]! / documents.length;
  const direction = normalise(Float32Array.from(mean));
  // For centred vectors near cosine 0, adding β·u gives cosine β²/(1+β²) between two of them.
  const beta = meanCosine === null ? 0 : Math.sqrt(meanCosine / (1 - meanCosine));
  const shape = (v: Float32Array) => {
    const centred = normalise(Float32Array.from(v, (x, i) => x - mean[i]!));
    return normalise(Float32Array.from(centred, (x, i) => x + beta * direction[i]!));
  };
  return { documents: documents.map(shape), queries: queries.map(shape) };
}
