import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src-main/testing/seeded-random';
import { ExactVectorIndex, recallAgainstExact } from './exact-search';

function randomMatrix(rows: number, dimensions: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: rows * dimensions }, () => random() * 2 - 1);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

describe('ExactVectorIndex', () => {
  it('returns the same top-k as sorting every cosine similarity', () => {
    const dimensions = 16;
    const matrix = randomMatrix(500, dimensions, 3);
    const ids = Int32Array.from({ length: 500 }, (_v, i) => 1000 + i);
    const index = new ExactVectorIndex(ids, matrix, dimensions);
    const query = randomMatrix(1, dimensions, 9);
    const all = Array.from(ids, (id, row) => ({
      id,
      score: cosine(matrix.subarray(row * dimensions, (row + 1) * dimensions), query),
    })).sort((a, b) => b.score - a.score);
    const top = index.topK(query, 30);
    expect(top.map((s) => s.id)).toEqual(all.slice(0, 30).map((s) => s.id));
    expect(top[0]!.score).toBeCloseTo(all[0]!.score, 5);
    expect(index.scoreOf(all[5]!.id, query)).toBeCloseTo(all[5]!.score, 5);
    expect(index.scoreOf(-1, query)).toBeNull();
  });

  it('breaks ties by the smaller id and rejects a matrix of the wrong size', () => {
    const index = new ExactVectorIndex([7, 3, 5], Float32Array.from([1, 0, 1, 0, 0, 1]), 2);
    expect(index.topK(Float32Array.from([1, 0]), 2).map((s) => s.id)).toEqual([3, 7]);
    expect(() => new ExactVectorIndex([1, 2], new Float32Array(3), 2)).toThrow(/expected 2 × 2/);
  });
});

describe('recallAgainstExact', () => {
  const exact = [
    { id: 1, score: 0.9 },
    { id: 2, score: 0.8 },
    { id: 3, score: 0.7 },
    { id: 4, score: 0.7 },
  ];
  const scores = new Map([
    [1, 0.9],
    [2, 0.8],
    [3, 0.7],
    [4, 0.7],
    [9, 0.7],
    [8, 0.1],
  ]);
  const scoreOf = (id: number) => scores.get(id) ?? null;

  it('counts exact matches and equally similar substitutes, not worse ones', () => {
    expect(recallAgainstExact([1, 2, 3], exact, 3, scoreOf)).toBe(1);
    // 9 ties the 3rd exact score: any of the tied vectors is a correct answer.
    expect(recallAgainstExact([1, 2, 9], exact, 3, scoreOf)).toBe(1);
    expect(recallAgainstExact([1, 8, 2], exact, 3, scoreOf)).toBeCloseTo(2 / 3, 10);
    expect(recallAgainstExact([1, 1, 1], exact, 3, scoreOf)).toBeCloseTo(1 / 3, 10);
    expect(recallAgainstExact([], exact, 3, scoreOf)).toBe(0);
  });
});
