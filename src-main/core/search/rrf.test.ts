import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, topKKeepingChannels } from './rrf';

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
    const fused = reciprocalRankFusion({
      vector: ['solo', ...thirty.slice(0, 28), 'both'],
      keyword: [...thirty.slice(0, 29).map((x) => `k${x}`), 'both'],
    });
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

describe('weighted reciprocalRankFusion', () => {
  it('lets a lighter vector channel lose ties it would otherwise win', () => {
    const channels = { vector: ['a', 'b'], keyword: ['b', 'a'] };
    const keys = (weights: Record<string, number>) =>
      reciprocalRankFusion(channels, 60, weights).map((item) => item.key);
    // Equal weights: a and b tie on score and on best rank; the key decides.
    expect(keys({})).toEqual(['a', 'b']);
    // Keyword 1, vector 0.5: b = 1/61 + 0.5/62 beats a = 0.5/61 + 1/62.
    expect(keys({ vector: 0.5 })).toEqual(['b', 'a']);
  });

  it('scales a channel by its weight; at weight 0 its keys follow every other key as a tail in its own order', () => {
    const channels = { keyword: ['a', 'b'], vector: ['c', 'b', 'd'] };
    const half = reciprocalRankFusion(channels, 60, { vector: 0.5 });
    expect(half.map((item) => [item.key, Number(item.score.toFixed(6))])).toEqual([
      ['b', Number((1 / 62 + 0.5 / 62).toFixed(6))],
      ['a', Number((1 / 61).toFixed(6))],
      ['c', Number((0.5 / 61).toFixed(6))],
      ['d', Number((0.5 / 63).toFixed(6))],
    ]);
    const tail = reciprocalRankFusion(channels, 60, { vector: 0 });
    expect(tail.map((item) => [item.key, item.ranks])).toEqual([
      ['a', { keyword: 1 }],
      ['b', { keyword: 2, vector: 2 }],
      ['c', { vector: 1 }],
      ['d', { vector: 3 }],
    ]);
  });
});

describe('topKKeepingChannels', () => {
  const localHits = Array.from({ length: 12 }, (_v, i) => `c${i}`);
  // Twelve chunks found by both local channels outrank every live hit of the two direct connections.
  const fused = reciprocalRankFusion<string>({
    vector: localHits,
    keyword: localHits,
    'direct:a': ['a1', 'a2'],
    'direct:b': ['b1'],
  });

  it('is the plain top k when every guaranteed channel is already in it', () => {
    expect(topKKeepingChannels(fused, 16, ['direct:a', 'direct:b']).map((item) => item.key)).toEqual(
      fused.slice(0, 16).map((item) => item.key),
    );
  });

  it('gives each guaranteed channel that answered its best hit, in place of the lowest other items, ordered by score', () => {
    expect(fused.slice(0, 5).some((item) => item.key.startsWith('a') || item.key.startsWith('b'))).toBe(
      false,
    );
    expect(
      topKKeepingChannels(fused, 5, ['direct:a', 'direct:b', 'direct:silent']).map((item) => item.key),
    ).toEqual(['c0', 'c1', 'c2', 'a1', 'b1']);
  });

  it('never drops one guaranteed channel for another when k is smaller than their number', () => {
    expect(topKKeepingChannels(fused, 1, ['direct:a', 'direct:b']).map((item) => item.key)).toEqual(['a1']);
    expect(topKKeepingChannels(fused, 0, ['direct:a'])).toEqual([]);
  });
});
