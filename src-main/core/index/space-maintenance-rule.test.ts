/**
 * Which indexes space maintenance rebuilds (space-maintenance.ts `overgrown`): sizes as measured on
 * real-docs after a bulk sync (the BM25 index 26.3 MB over a 22.7 MB table; rebuilt, 11.5 MB).
 */
import { describe, expect, it } from 'vitest';
import { overgrown } from './space-maintenance';

const MB = 1024 * 1024;

describe('overgrown', () => {
  it('rebuilds a keyword index past its table, but a B-tree or vector index only past twice its table', () => {
    const picked = overgrown([
      { name: 'chunks_search_bm25', method: 'bm25', bytes: 26.3 * MB, tableBytes: 22.7 * MB },
      { name: 'chunks_pkey', method: 'btree', bytes: 26.3 * MB, tableBytes: 22.7 * MB },
      { name: 'embeddings_1_hnsw', method: 'hnsw', bytes: 40 * MB, tableBytes: 22.7 * MB },
      { name: 'embeddings_2_hnsw', method: 'hnsw', bytes: 50 * MB, tableBytes: 22.7 * MB },
    ]);
    expect(picked.map((index) => index.name)).toEqual(['chunks_search_bm25', 'embeddings_2_hnsw']);
  });

  it('leaves a freshly built keyword index and one too small to matter alone', () => {
    const picked = overgrown([
      { name: 'chunks_search_bm25', method: 'bm25', bytes: 11.5 * MB, tableBytes: 22.7 * MB },
      { name: 'small_bm25', method: 'bm25', bytes: 10 * MB, tableBytes: 2 * MB },
    ]);
    expect(picked).toEqual([]);
  });
});
