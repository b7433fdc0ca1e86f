import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { annIndexName } from '../index/ann-index';
import { ensureActiveSpace, spaceTable, type SpaceRecord } from '../index/embedding-spaces';
import { toVectorLiteral } from '../index/vector-literal';
import {
  CountingEmbedder,
  insertBigAndSmall,
  insertConnection,
  writeMarkdownDocument,
} from '../../testing/index-fixtures';
import { CHANNEL_DEPTH, DEEPEST_CHANNEL_DEPTH } from './channel-scope';
import { HybridSearch } from './hybrid-search';
import { retrieveFromIndex } from './index-retrieval';
import { configureVectorSession, HNSW_EF_SEARCH, HNSW_ITERATIVE_SCAN } from './vector-channel';

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

describe('the HNSW walk at the deepest channel depth', () => {
  let walkDb: Db;
  let space: SpaceRecord;

  beforeAll(async () => {
    walkDb = await openDatabase();
    const { big, small } = await insertBigAndSmall(walkDb);
    const all = [...big, ...small];
    space = (await ensureActiveSpace(walkDb, { provider: 'test', model: 'quarter', dimensions: 2 })).active;
    // Every chunk at its own angle within a quarter turn of the query's direction.
    await walkDb.query(
      `INSERT INTO ${spaceTable(space)} (chunk_id, connection_id, embedding)
       SELECT id, connection_id, v::vector(2) FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, connection_id, v)`,
      [
        all,
        all.map((id) => (small.includes(id) ? 'small' : 'big')),
        all.map((_, i) => {
          const radians = (i / all.length) * (Math.PI / 2);
          return toVectorLiteral([Math.cos(radians), Math.sin(radians)]);
        }),
      ],
    );
    await walkDb.exec(
      `CREATE INDEX ${annIndexName(space)} ON ${spaceTable(space)} USING hnsw (embedding vector_cosine_ops)`,
    );
    await configureVectorSession(walkDb);
    // The walk alone: no resumed scan, and no exact scan the planner might prefer on 603 rows.
    await walkDb.exec('SET hnsw.iterative_scan = off; SET enable_seqscan = off');
  });
  afterAll(async () => {
    await walkDb.close();
  });

  const vectorRanking = async (depth?: number) =>
    (
      await retrieveFromIndex(walkDb, {
        query: { keywordText: '', frameKeywordText: '' },
        scope: null,
        ...(depth ? { depth } : {}),
        vector: { space, queryVector: Float32Array.from([1, 0]) },
      })
    ).vector;

  it('returns the whole depth: ef_search is not below it', async () => {
    expect(await vectorRanking()).toHaveLength(CHANNEL_DEPTH);
    expect(await vectorRanking(DEEPEST_CHANNEL_DEPTH)).toHaveLength(DEEPEST_CHANNEL_DEPTH);
  });

  it('would stop short with an ef_search below the depth (what the check above guards)', async () => {
    const belowDepth = DEEPEST_CHANNEL_DEPTH / 2;
    await walkDb.exec(`SET hnsw.ef_search = ${belowDepth}`);
    try {
      expect(await vectorRanking(DEEPEST_CHANNEL_DEPTH)).toHaveLength(belowDepth);
    } finally {
      await configureVectorSession(walkDb);
    }
  });
});
