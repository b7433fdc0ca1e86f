import { describe, expect, it } from 'vitest';
import type { Chunk } from '../chunking/chunker';
import { embeddingInput } from '../index/embedding-input';
import { embedDocument, GROUP_CHUNKS } from './document-embedding';
import type { Embedded } from './embed-batcher';

function chunks(count: number): Chunk[] {
  return Array.from({ length: count }, (_v, ord) => ({
    ord,
    headingPath: 'Export',
    text: `row ${ord}`,
    charStart: ord * 8,
    charEnd: ord * 8 + 7,
  }));
}

/** A batcher that records each call's inputs and answers one vector (the input's index) per input. */
function recordingBatcher() {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    calls,
    maxInFlight: () => maxInFlight,
    async embed(texts: string[]): Promise<Embedded> {
      calls.push(texts);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return {
        vectors: texts.map((text) => Float32Array.of(Number(/row (\d+)/.exec(text)![1]))),
        keywordTexts: texts.map((text) => `kw ${text}`),
      };
    },
  };
}

describe('embedDocument', () => {
  it('embeds a small document in one call and keeps its keyword texts', async () => {
    const batcher = recordingBatcher();
    const result = await embedDocument(batcher, 'Title', chunks(3));
    expect(batcher.calls).toHaveLength(1);
    expect(batcher.calls[0]![0]).toBe(
      embeddingInput({ title: 'Title', headingPath: 'Export', text: 'row 0' }),
    );
    expect(result.keywordTexts).toHaveLength(3);
  });

  it('embeds a large document a group at a time, two in flight, vectors in order, keyword texts kept', async () => {
    const batcher = recordingBatcher();
    const count = GROUP_CHUNKS * 3 + 5;
    const result = await embedDocument(batcher, 'Title', chunks(count));
    expect(batcher.calls.map((call) => call.length)).toEqual([GROUP_CHUNKS, GROUP_CHUNKS, GROUP_CHUNKS, 5]);
    expect(result.vectors.map((v) => v[0])).toEqual(Array.from({ length: count }, (_v, i) => i));
    expect(result.keywordTexts?.[count - 1]).toBe(
      `kw ${embeddingInput({ title: 'Title', headingPath: 'Export', text: `row ${count - 1}` })}`,
    );
  });

  it('keeps no keyword texts for a document past the size where memory matters more than a second analysis', async () => {
    const batcher = recordingBatcher();
    const count = GROUP_CHUNKS * 3 + 5;
    const result = await embedDocument(batcher, 'Title', chunks(count), {
      keywordTextsMaxChunks: GROUP_CHUNKS,
    });
    expect(batcher.calls.map((call) => call.length)).toEqual([GROUP_CHUNKS, GROUP_CHUNKS, GROUP_CHUNKS, 5]);
    expect(batcher.maxInFlight()).toBe(2);
    expect(result.vectors.map((v) => v[0])).toEqual(Array.from({ length: count }, (_v, i) => i));
    expect(result.keywordTexts).toBeUndefined();
  });

  it('fails when a group fails, without an unhandled rejection from the group after it', async () => {
    let call = 0;
    const batcher = {
      embed: async (texts: string[]): Promise<Embedded> => {
        call += 1;
        if (call >= 2) throw new Error(`group ${call} failed`);
        return { vectors: texts.map(() => new Float32Array(1)) };
      },
    };
    await expect(embedDocument(batcher, 'T', chunks(GROUP_CHUNKS * 3))).rejects.toThrow('group 2 failed');
  });
});
