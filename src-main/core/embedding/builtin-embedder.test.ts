import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { BuiltinEmbedder, DEFAULT_HASH_FEATURES } from './builtin-embedder';
import { dot } from './vector-math';

const embedder = new BuiltinEmbedder();

function nearest(query: string, documents: string[]): string {
  const q = embedder.embedOne(query);
  return documents
    .map((text) => ({ text, score: dot(q, embedder.embedOne(text)) }))
    .sort((a, b) => b.score - a.score)[0]!.text;
}

describe('BuiltinEmbedder', () => {
  it('is deterministic, unit length and of the requested size, in a versioned space', async () => {
    const { vectors, tokens, calls } = await embedder.embed([
      'Quarterly travel expense policy',
      '差旅报销单',
      '👍🎉',
      '',
    ]);
    const again = await new BuiltinEmbedder().embed(['Quarterly travel expense policy']);
    expect(Array.from(vectors[0]!)).toEqual(Array.from(again.vectors[0]!));
    expect(vectors.map((v) => [v.length, Number(Math.sqrt(dot(v, v)).toFixed(6))])).toEqual(
      vectors.map(() => [1024, 1]),
    );
    expect({ tokens, calls, space: embedder.space }).toEqual({
      tokens: 0,
      calls: 0,
      space: { provider: 'builtin', model: 'cairn-hash-v1', dimensions: 1024 },
    });
    expect(new BuiltinEmbedder(256).embedOne('x').length).toBe(256);
    expect(new BuiltinEmbedder(1024, { ...DEFAULT_HASH_FEATURES, charNgramMax: 4 }).space.model).not.toBe(
      'cairn-hash-v1',
    );
  });

  it('has not changed its features without a new model name', () => {
    // If this fails on purpose, bump MODEL in builtin-embedder.ts: stored vectors must be re-embedded.
    const vector = embedder.embedOne('Cairn indexes Feishu, Yuque and 钉钉 documents; 差旅报销单 v2.');
    const fingerprint = vector.reduce((sum, value, index) => sum + value * ((index % 97) + 1), 0);
    expect(fingerprint.toFixed(4)).toBe(FINGERPRINT);
  });

  it('ranks lexically related text first, across inflection and Chinese segmentation', () => {
    const documents = [
      'How to fill in the travel expense reimbursement form',
      'Embedding models map sentences to vectors',
      '请把本月的差旅报销单和发票一起交给财务。',
      '公司年会将在十二月举行，请各部门准备节目。',
    ];
    expect(nearest('embeddings of a sentence', documents)).toBe(documents[1]);
    expect(nearest('reimbursing travel expenses', documents)).toBe(documents[0]);
    expect(nearest('报销', documents)).toBe(documents[2]);
    expect(nearest('年会节目', documents)).toBe(documents[3]);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['x'], { signal: controller.signal })).rejects.toBeInstanceOf(CairnError);
  });
});

const FINGERPRINT = '76.3940';
