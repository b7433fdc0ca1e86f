import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25';
import { reciprocalRankFusion, scoreRanking } from './metrics';

describe('quality metrics', () => {
  it('computes nDCG@10, recall and MRR by hand-checkable numbers', () => {
    const relevant = new Map([
      ['a', 1],
      ['b', 1],
    ]);
    // a at rank 2, b missing: DCG = 1/log2(3); IDCG = 1 + 1/log2(3).
    const m = scoreRanking(['x', 'a', 'y'], relevant);
    expect([m.ndcg10.toFixed(4), m.recall10, m.mrr10]).toEqual([
      (1 / Math.log2(3) / (1 + 1 / Math.log2(3))).toFixed(4),
      0.5,
      0.5,
    ]);
  });

  it('fuses by reciprocal rank with k = 60', () => {
    // d: 1/61 + 1/62 beats a: 1/61 alone; b (1/62) and e (1/63) follow.
    expect(
      reciprocalRankFusion([
        ['a', 'd', 'e'],
        ['d', 'b'],
      ]),
    ).toEqual(['d', 'a', 'b', 'e']);
  });

  it('ranks by BM25: rarer matching terms count more, repeated terms saturate', () => {
    const index = new Bm25Index([
      ['cat', 'dog'],
      ['dog', 'dog', 'bird'],
      ['fish'],
      ['dog', 'fish', 'fish', 'fish', 'fish'],
    ]);
    expect(index.search(['cat', 'dog'], 10)).toEqual([0, 1, 3]);
    expect(index.search(['fish'], 10)).toEqual([3, 2]);
  });
});
