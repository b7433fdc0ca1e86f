/**
 * The reference the vector channel is measured against: exact cosine top-k over the same vectors,
 * in plain Float32Array code (no index, no SQL). One row-major matrix, norms precomputed, a
 * bounded insertion list for the top k.
 */

export interface ScoredId {
  id: number;
  score: number;
}

export class ExactVectorIndex {
  private readonly norms: Float32Array;

  /** `matrix` holds `ids.length` rows of `dimensions` floats, row i belonging to ids[i]. */
  constructor(
    readonly ids: Int32Array | number[],
    readonly matrix: Float32Array,
    readonly dimensions: number,
  ) {
    if (matrix.length !== ids.length * dimensions)
      throw new Error(`Matrix holds ${matrix.length} floats, expected ${ids.length} × ${dimensions}.`);
    this.norms = new Float32Array(ids.length);
    for (let row = 0; row < ids.length; row++)
      this.norms[row] = Math.sqrt(dot(matrix, row * dimensions, matrix, row * dimensions, dimensions));
  }

  get size(): number {
    return this.ids.length;
  }

  /** The k rows most cosine-similar to `query`, best first (ties by smaller id). */
  topK(query: Float32Array, k: number): ScoredId[] {
    const queryNorm = Math.sqrt(dot(query, 0, query, 0, this.dimensions)) || 1;
    const best: ScoredId[] = [];
    for (let row = 0; row < this.ids.length; row++) {
      const norm = this.norms[row]! || 1;
      const score = dot(this.matrix, row * this.dimensions, query, 0, this.dimensions) / (norm * queryNorm);
      const id = Number(this.ids[row]);
      if (best.length === k && !better(score, id, best[k - 1]!)) continue;
      let at = best.length === k ? k - 1 : best.length;
      while (at > 0 && better(score, id, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = { id, score };
    }
    return best;
  }

  /** Cosine similarity of one stored row (by id) to `query`, for tie-aware recall. */
  scoreOf(id: number, query: Float32Array): number | null {
    const row = this.rowOf().get(id);
    if (row === undefined) return null;
    const queryNorm = Math.sqrt(dot(query, 0, query, 0, this.dimensions)) || 1;
    return (
      dot(this.matrix, row * this.dimensions, query, 0, this.dimensions) /
      ((this.norms[row]! || 1) * queryNorm)
    );
  }

  private rows: Map<number, number> | null = null;

  private rowOf(): Map<number, number> {
    this.rows ??= new Map(Array.from(this.ids, (id, row) => [Number(id), row]));
    return this.rows;
  }
}

function better(score: number, id: number, than: ScoredId): boolean {
  return score > than.score || (score === than.score && id < than.id);
}

function dot(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, length: number): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += a[aOffset + i]! * b[bOffset + i]!;
  return sum;
}

/**
 * Recall@k of an approximate result against the exact one. A returned id counts when it is in
 * the exact top k OR scores at least the exact k-th score (minus `tolerance`): among equally
 * similar vectors any choice is correct, and the stored vectors are rounded to 7 digits.
 */
export function recallAgainstExact(
  approximate: readonly number[],
  exact: readonly ScoredId[],
  k: number,
  scoreOf: (id: number) => number | null,
  tolerance = 1e-5,
): number {
  const target = exact.slice(0, k);
  if (target.length === 0) return approximate.length === 0 ? 1 : 0;
  const threshold = target[target.length - 1]!.score - tolerance;
  const exactIds = new Set(target.map((s) => s.id));
  let found = 0;
  for (const id of new Set(approximate.slice(0, k))) {
    if (exactIds.has(id) || (scoreOf(id) ?? Number.NEGATIVE_INFINITY) >= threshold) found++;
  }
  return Math.min(1, found / target.length);
}
