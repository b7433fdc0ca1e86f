import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './rrf';

describe('reciprocalRankFusion', () => {
  it('sums 1/(60+rank) over channels and orders by the fused score', () => {
    const fused = reciprocalRankFusion({ vector: ['a', 'b', 'c'], keyword: ['c', 'a', 'd'] });
    expect(fused).toEqual([
      { key: 'a', score: 1 / 61 + 1 / 62, ranks: { vector: 1, keyword: 2 } },
      { key: 'c', score: 1 / 63 + 1 / 61, ranks: { vector: 3, keyword: 1 } },
      { key: 'b', score: 1 / 62, ranks: { vector: 2 } },
      { key: 'd', score: 1 / 63, ranks: { keyword: 3 } },
    ]);
  });

  it('lets a document found by two channels at rank 30 beat one found once at rank 1', () => {
    const thirty = Array.from({ length: 30 }, (_v, i) => `x${i}`);
    const fused = reciprocalRankFusion({ vector: ['solo', ...thirty.slice(0, 28), 'both'], keyword: [...thirty.slice(0, 29).map((x) => `k${x}`), 'both'] });
    expect(fused[0]?.key).toBe('both');
    expect(fused[0]?.score).toBeCloseTo(2 / 90, 12);
  });

  it('counts a key repeated within one channel once, at its best rank, and breaks ties deterministically', () => {
    expect(reciprocalRankFusion({ keyword: ['b', 'a', 'b'], direct: ['a', 'b'] }, 10)).toEqual([
      { key: 'a', score: 1 / 12 + 1 / 11, ranks: { keyword: 2, direct: 1 } },
      { key: 'b', score: 1 / 11 + 1 / 12, ranks: { keyword: 1, direct: 2 } },
    ]);
    expect(reciprocalRankFusion({ vector: [], keyword: undefined })).toEqual([]);
  });
});
