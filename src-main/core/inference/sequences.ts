/**
 * Token sequences for the encoders: windows of one text, (query, passage) pairs, and batches
 * padded to their longest member. Pure functions over token ids, so they are tested without ONNX.
 */
import type { SpecialFrame } from './model-tokenizer';

export interface Sequence {
  ids: number[];
  /** token_type_ids (0 for the first text, 1 for the second of a pair). */
  types: number[];
  /** Index of the text (or pair) this sequence belongs to. */
  owner: number;
}

/**
 * The windows of one text: consecutive, non-overlapping runs of its tokens, each framed by the
 * model's special tokens, at most `maxWindows` (the rest of a longer text is cut). An empty text
 * is one window holding only the special tokens.
 */
export function textWindows(
  body: number[],
  frame: SpecialFrame,
  maxTokens: number,
  maxWindows: number,
  owner: number,
): Sequence[] {
  const room = Math.max(1, maxTokens - frame.head.length - frame.tail.length);
  const count = Math.max(1, Math.min(Math.max(1, maxWindows), Math.ceil(body.length / room)));
  const windows: Sequence[] = [];
  for (let w = 0; w < count; w++) {
    const ids = [...frame.head, ...body.slice(w * room, (w + 1) * room), ...frame.tail];
    windows.push({ ids, types: ids.map(() => 0), owner });
  }
  return windows;
}

/** A (query, passage) pair cut to `maxTokens`: the query first to `maxQueryTokens`, then the passage to what is left. */
export function pairSequence(
  query: number[],
  passage: number[],
  frame: SpecialFrame,
  maxTokens: number,
  maxQueryTokens: number,
  owner: number,
): Sequence {
  const specials = frame.pairHead.length + frame.pairMid.length + frame.pairTail.length;
  const q = query.slice(0, Math.max(1, Math.min(maxQueryTokens, maxTokens - specials - 1)));
  const room = Math.max(0, maxTokens - specials - q.length);
  const first = [...frame.pairHead, ...q, ...frame.pairMid];
  const second = [...passage.slice(0, room), ...frame.pairTail];
  return { ids: [...first, ...second], types: [...first.map(() => 0), ...second.map(() => 1)], owner };
}

/**
 * Groups sequences into batches of similar length (sorted, so little padding is wasted), at most
 * `maxBatch` sequences and `maxTokens` padded tokens each (attention memory grows with both).
 */
export function batchesOf(sequences: Sequence[], maxBatch: number, maxTokens: number): Sequence[][] {
  const sorted = [...sequences].sort((a, b) => a.ids.length - b.ids.length);
  const batches: Sequence[][] = [];
  let current: Sequence[] = [];
  for (const sequence of sorted) {
    const width = sequence.ids.length;
    if (current.length > 0 && (current.length >= maxBatch || width * (current.length + 1) > maxTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(sequence);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export interface PaddedBatch {
  size: number;
  width: number;
  ids: BigInt64Array;
  mask: BigInt64Array;
  types: BigInt64Array;
}

/** Right-padded int64 tensors' data for one batch. */
export function padBatch(batch: Sequence[], padId: number): PaddedBatch {
  const size = batch.length;
  const width = Math.max(1, ...batch.map((s) => s.ids.length));
  const ids = new BigInt64Array(size * width).fill(BigInt(padId));
  const mask = new BigInt64Array(size * width);
  const types = new BigInt64Array(size * width);
  batch.forEach((sequence, row) => {
    sequence.ids.forEach((id, i) => {
      ids[row * width + i] = BigInt(id);
      mask[row * width + i] = 1n;
      types[row * width + i] = BigInt(sequence.types[i] ?? 0);
    });
  });
  return { size, width, ids, mask, types };
}
