import { describe, expect, it } from 'vitest';
import {
  dedupe,
  ndcgAt,
  percentile,
  precisionAt1,
  recallAt,
  reciprocalRankAt,
  summarizeLatencies,
} from './metrics';

const graded = new Map([
  ['a', 3],
  ['b', 2],
  ['c', 1],
  ['z', 0],
]);

describe('ranking metrics', () => {
  it('computes nDCG@k with linear gain and log2 discount', () => {
    // DCG = 2/log2(2) + 0 + 3/log2(4) = 2 + 1.5; ideal = 3 + 2/log2(3) + 1/log2(4)
    const ideal = 3 + 2 / Math.log2(3) + 0.5;
    expect(ndcgAt(['b', 'x', 'a'], graded, 10)).toBeCloseTo(3.5 / ideal, 10);
    expect(ndcgAt(['a', 'b', 'c'], graded, 10)).toBeCloseTo(1, 10);
    // Cut at k: only the first rank counts, against the ideal's first rank.
    expect(ndcgAt(['b', 'a'], graded, 1)).toBeCloseTo(2 / 3, 10);
    expect(ndcgAt(['x', 'y'], graded, 10)).toBe(0);
    expect(ndcgAt(['a'], new Map([['a', 0]]), 10)).toBe(0);
  });

  it('counts a document once, at its best-ranked chunk', () => {
    expect(dedupe(['d1', 'd2', 'd1', 'd3', 'd2'])).toEqual(['d1', 'd2', 'd3']);
    // Without dedupe the second 'a' would add gain again and push nDCG above 1.
    expect(ndcgAt(['a', 'a', 'b', 'c'], graded, 10)).toBeCloseTo(1, 10);
    expect(recallAt(['x', 'x', 'x', 'c'], graded, 2)).toBeCloseTo(1 / 3, 10);
  });

  it('computes recall over judged relevant documents (grade > 0) and MRR@k', () => {
    expect(recallAt(['c', 'x', 'z', 'a'], graded, 10)).toBeCloseTo(2 / 3, 10);
    expect(recallAt(['c', 'x', 'z', 'a'], graded, 3)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRankAt(['x', 'z', 'c'], graded, 10)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRankAt(['x', 'z', 'c'], graded, 2)).toBe(0);
    expect(reciprocalRankAt(['a'], graded, 10)).toBe(1);
  });
});

describe('precisionAt1', () => {
  it('is 1 only when the first document is judged relevant', () => {
    expect(precisionAt1(['a', 'z'], graded)).toBe(1);
    expect(precisionAt1(['z', 'a'], graded)).toBe(0);
    expect(precisionAt1(['unjudged', 'a'], graded)).toBe(0);
    expect(precisionAt1([], graded)).toBe(0);
  });
});

describe('latency summaries', () => {
  it('interpolates percentiles between closest ranks', () => {
    const values = [40, 10, 30, 20];
    expect([
      percentile(values, 0),
      percentile(values, 50),
      percentile(values, 95),
      percentile(values, 100),
    ]).toEqual([10, 25, 38.5, 40]);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
    const oneToHundred = Array.from({ length: 100 }, (_v, i) => i + 1);
    expect(summarizeLatencies(oneToHundred)).toEqual({
      p50: 50.5,
      p95: 95.05,
      p99: 99.01,
      mean: 50.5,
      n: 100,
    });
  });
});
