import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { CountingEmbedder, insertConnection, writeMarkdownDocument } from '../../testing/index-fixtures';
import { HybridSearch } from './hybrid-search';
import { HNSW_EF_SEARCH, HNSW_ITERATIVE_SCAN } from './vector-channel';

let db: Db;
const embedder = new CountingEmbedder();

async function setting(name: string): Promise<string> {
  const rows = await db.query<Record<string, string>>(`SHOW ${name}`);
  return Object.values(rows.rows[0]!)[0]!;
}

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  await insertConnection(db, 'notes');
  await writeMarkdownDocument(db, embedder, {
    connectionId: 'notes',
    externalId: 'install',
    title: 'Install guide',
    markdown: 'To install Cairn on Linux, download the AppImage and run it.',
  });
});
afterAll(async () => {
  await db.close();
});

describe('the vector channel session settings', () => {
  it('are applied by the first search on the connection that searches, not before', async () => {
    // pgvector's defaults: the walk HybridSearch must not be left with.
    expect(await setting('hnsw.ef_search')).toBe('40');
    expect(await setting('hnsw.iterative_scan')).toBe('off');

    const search = new HybridSearch({
      db,
      queryEmbedder: (space) => (space.model === embedder.space.model ? embedder : null),
    });
    const result = await search.search({ query: 'install Linux' });
    expect(result.hits.length).toBeGreaterThan(0);

    expect(await setting('hnsw.ef_search')).toBe(String(HNSW_EF_SEARCH));
    expect(await setting('hnsw.iterative_scan')).toBe(HNSW_ITERATIVE_SCAN);
  });
});
