import { describe, expect, it } from 'vitest';
import { bestWeight } from './fusion-study';

describe('bestWeight', () => {
  it('picks the best-scoring weight, the first one on a tie', () => {
    expect(
      bestWeight(
        new Map([
          [1, 0.6],
          [0.5, 0.7],
          [0.25, 0.7],
        ]),
      ),
    ).toBe(0.5);
    expect(() => bestWeight(new Map())).toThrow();
  });
});
