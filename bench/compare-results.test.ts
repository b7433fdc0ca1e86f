import { describe, expect, it } from 'vitest';
import { compareResults, type ComparableResults } from './compare-results';

const run = (keywordNdcg: number, keywordP1: number, realDocsP1: number): ComparableResults => ({
  collections: [
    {
      collection: 'scifact',
      split: 'test',
      scores: { keyword: { ndcgAt10: keywordNdcg, pAt1: keywordP1 }, hybrid: { ndcgAt10: 0.7, pAt1: 0.6 } },
      reference: { ndcgAt10: 0.68, pAt1: 0.55 },
    },
  ],
  realDocs: [
    {
      collection: 'real-docs',
      split: 'test',
      channels: {
        hybrid: { all: { ndcgAt10: 0.8, pAt1: realDocsP1 }, overall: { ndcgAt10: 0.82, pAt1: realDocsP1 } },
      },
    },
  ],
});

describe('compareResults', () => {
  it('flags a drop of more than 0.005 in nDCG@10 or P@1, on any channel and collection', () => {
    const { rows } = compareResults(run(0.7, 0.6, 0.7), run(0.694, 0.6, 0.7));
    const regressed = rows.filter((r) => r.regressed);
    expect(regressed).toHaveLength(1);
    expect(regressed[0]).toMatchObject({ collection: 'scifact', channel: 'keyword', metric: 'ndcgAt10' });
    expect(regressed[0]!.diff).toBeCloseTo(-0.006, 10);
  });

  it('accepts a drop within the tolerance and any gain', () => {
    const { rows } = compareResults(run(0.7, 0.6, 0.7), run(0.696, 0.9, 0.75));
    expect(rows.some((r) => r.regressed)).toBe(false);
    // scifact: keyword, hybrid, bm25f; real-docs: all and all-but-paraphrase; each twice (nDCG@10, P@1).
    expect(rows).toHaveLength(10);
  });

  it('catches a P@1 drop on a real-documents corpus', () => {
    const { rows } = compareResults(run(0.7, 0.6, 0.7), run(0.7, 0.6, 0.65));
    expect(rows.filter((r) => r.regressed).map((r) => `${r.collection} ${r.metric}`)).toEqual([
      'real-docs pAt1',
      'real-docs, all but paraphrase pAt1',
    ]);
  });

  it('compares an old results file (no P@1, no channels for real documents) on what it has', () => {
    const old: ComparableResults = {
      collections: [{ collection: 'scifact', split: 'test', scores: { keyword: { ndcgAt10: 0.72 } } }],
      realDocs: [{ collection: 'real-docs', split: 'test', overall: { pAt1: 0.74 } }],
    };
    const { rows, onlyAfter } = compareResults(old, run(0.7, 0.6, 0.7));
    expect(rows.map((r) => [r.collection, r.channel, r.metric, r.regressed])).toEqual([
      ['scifact', 'keyword', 'ndcgAt10', true],
      ['real-docs, all but paraphrase', 'hybrid', 'pAt1', true],
    ]);
    expect(onlyAfter).toContain('scifact / bm25f');
  });

  it('keeps train and test splits apart', () => {
    const train = run(0.5, 0.4, 0.5);
    train.collections![0]!.split = 'train';
    const { rows, onlyBefore } = compareResults(train, run(0.7, 0.6, 0.7));
    expect(rows.some((r) => r.collection === 'scifact')).toBe(false);
    expect(onlyBefore).toContain('scifact (train) / keyword');
  });
});
