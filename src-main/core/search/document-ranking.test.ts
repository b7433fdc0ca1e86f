import { describe, expect, it } from 'vitest';
import { rankByDocument, type RankableChunk } from './document-ranking';

/** Chunks of three documents; the scan's BM25 scores are given per chunk. */
const ROWS = new Map<number, RankableChunk>([
  // A release note that mentions the key in passing, in many chunks.
  [
    1,
    {
      document_id: 'notes',
      title: 'v7.5.0 发布说明',
      heading_path: 'v7.5.0 发布说明',
      content: 'max-index-length 调整',
    },
  ],
  [
    2,
    {
      document_id: 'notes',
      title: 'v7.5.0 发布说明',
      heading_path: 'v7.5.0 发布说明',
      content: 'max-index-length 修复',
    },
  ],
  [
    3,
    {
      document_id: 'notes',
      title: 'v7.5.0 发布说明',
      heading_path: 'v7.5.0 发布说明',
      content: 'max-index-length 默认',
    },
  ],
  // The configuration reference: the key is a heading of its own.
  [
    4,
    {
      document_id: 'config',
      title: 'TiDB 配置文件',
      heading_path: 'TiDB 配置文件 > max-index-length',
      content: '### max-index-length\n\n默认值：3072',
    },
  ],
  [
    5,
    {
      document_id: 'config',
      title: 'TiDB 配置文件',
      heading_path: 'TiDB 配置文件 > log',
      content: '### log\n\n日志',
    },
  ],
  // A page titled by the query's words.
  [6, { document_id: 'titled', title: '分区表', heading_path: '分区表', content: '分区表 的 用法' }],
]);
const rowOf = (id: number) => ROWS.get(id);
const weights = new Map([
  // The analysed identifier (analyzer.ts joins its parts: maxindexlength).
  ['maxindexlength', 2],
  ['分区', 1.5],
]);

describe('rankByDocument', () => {
  it('scores a document by its best chunk and a share of the next, not the sum of every mention', () => {
    const scan = [
      { id: 1, score: 3 },
      { id: 2, score: 2.9 },
      { id: 3, score: 2.8 },
      { id: 4, score: 2.5 },
    ];
    const off = { title: 0, headings: 0, more: 0 };
    expect(rankByDocument(scan, rowOf, weights, off, 3)).toEqual([1, 2, 3, 4]);
    // The chunk headed by the key outranks the passing mentions once headings are a field.
    expect(rankByDocument(scan, rowOf, weights, { ...off, headings: 0.5 }, 3)).toEqual([4, 1, 2, 3]);
    // A large share of the second chunk lets the many mentions win again.
    expect(rankByDocument(scan, rowOf, weights, { ...off, headings: 0.5, more: 1 }, 3)[0]).toBe(1);
  });

  it('adds the title field to the document score and keeps at most perDocument chunks each', () => {
    const scan = [
      { id: 1, score: 3 },
      { id: 2, score: 2.9 },
      { id: 3, score: 2.8 },
      { id: 6, score: 2 },
    ];
    expect(rankByDocument(scan, rowOf, weights, { title: 0, headings: 0, more: 0 }, 2)).toEqual([1, 2, 6]);
    expect(rankByDocument(scan, rowOf, weights, { title: 1, headings: 0, more: 0 }, 2)).toEqual([6, 1, 2]);
  });
});
