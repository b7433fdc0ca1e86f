import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from '../src-main/core/search/rrf';
import { seededRandom } from './random';
import { bestWeight, weightedFusion } from './fusion-study';

describe('weightedFusion', () => {
  it('ranks exactly like the app’s RRF when every weight is 1', () => {
    const random = seededRandom(11);
    for (let trial = 0; trial < 50; trial++) {
      const pool = Array.from({ length: 40 }, (_v, i) => `c${i}`);
      const draw = () => pool.filter(() => random() < 0.5).sort(() => random() - 0.5).slice(0, 30);
      const channels = { vector: draw(), keyword: draw() };
      expect(weightedFusion(channels, { vector: 1, keyword: 1 })).toEqual(reciprocalRankFusion(channels).map((item) => item.key));
    }
  });

  it('lets a lighter vector channel lose ties it would otherwise win', () => {
    const channels = { vector: ['a', 'b'], keyword: ['b', 'a'] };
    // Equal weights: a and b tie on score and on best rank; the key decides.
    expect(weightedFusion(channels, { vector: 1, keyword: 1 })).toEqual(['a', 'b']);
    // Keyword 1, vector 0.5: b = 1/61 + 0.5/62 beats a = 0.5/61 + 1/62.
    expect(weightedFusion(channels, { vector: 0.5, keyword: 1 })).toEqual(['b', 'a']);
    expect(weightedFusion({ vector: ['x'], keyword: [] }, { vector: 0.1 })).toEqual(['x']);
  });

  it('picks the best-scoring weight, the first one on a tie', () => {
    expect(bestWeight(new Map([[1, 0.6], [0.5, 0.7], [0.25, 0.7]]))).toBe(0.5);
    expect(() => bestWeight(new Map())).toThrow();
  });
});
