import { describe, expect, it } from 'vitest';
import type { SpecialFrame } from './model-tokenizer';
import { batchesOf, padBatch, pairSequence, textWindows } from './sequences';

const FRAME: SpecialFrame = {
  head: [101],
  tail: [102],
  pairHead: [101],
  pairMid: [102],
  pairTail: [102],
  padId: 0,
};

describe('token sequences', () => {
  it('cuts a long text into framed windows, at most maxWindows, and keeps a short one whole', () => {
    const body = Array.from({ length: 10 }, (_, i) => i + 1);
    expect({
      truncated: textWindows(body, FRAME, 6, 1, 0).map((s) => s.ids),
      windows: textWindows(body, FRAME, 6, 5, 0).map((s) => s.ids),
      capped: textWindows(body, FRAME, 6, 2, 0).map((s) => s.ids),
      short: textWindows([7, 8], FRAME, 6, 3, 4).map((s) => ({ ids: s.ids, owner: s.owner })),
      empty: textWindows([], FRAME, 6, 3, 0).map((s) => s.ids),
    }).toEqual({
      truncated: [[101, 1, 2, 3, 4, 102]],
      windows: [
        [101, 1, 2, 3, 4, 102],
        [101, 5, 6, 7, 8, 102],
        [101, 9, 10, 102],
      ],
      capped: [
        [101, 1, 2, 3, 4, 102],
        [101, 5, 6, 7, 8, 102],
      ],
      short: [{ ids: [101, 7, 8, 102], owner: 4 }],
      empty: [[101, 102]],
    });
  });

  it('cuts a pair’s query first, then only the passage, and marks the passage with type 1', () => {
    expect(pairSequence([1, 2, 3, 4], [5, 6, 7, 8, 9], FRAME, 9, 2, 0)).toEqual({
      ids: [101, 1, 2, 102, 5, 6, 7, 8, 102],
      types: [0, 0, 0, 0, 1, 1, 1, 1, 1],
      owner: 0,
    });
  });

  it('batches by length under both caps and pads to the longest member', () => {
    const seq = (length: number, owner: number) => ({
      ids: Array(length).fill(5),
      types: Array(length).fill(0),
      owner,
    });
    const batches = batchesOf([seq(5, 0), seq(2, 1), seq(4, 2), seq(3, 3)], 2, 8);
    const padded = padBatch(batches[0]!, 0);
    expect({
      owners: batches.map((b) => b.map((s) => s.owner)),
      padded: { size: padded.size, width: padded.width, mask: Array.from(padded.mask, Number) },
    }).toEqual({
      owners: [[1, 3], [2], [0]],
      padded: { size: 2, width: 3, mask: [1, 1, 0, 1, 1, 1] },
    });
  });
});
