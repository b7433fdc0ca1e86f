import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { chunkMarkdown, type Chunk } from '../chunking/chunker';
import type { DocumentRef } from '../connectors/connector';
import { CountingEmbedder, insertConnection } from '../../testing/index-fixtures';
import { ANN_MIN_ROWS, hasAnnIndex, shouldDropBeforeBulkWrite } from './ann-index';
import { createPendingSpace, ensureActiveSpace, readSpaces, spaceTable } from './embedding-spaces';
import { PgDocumentStore } from './pg-document-store';
import { BULK_KEYWORD_MIN_CHUNKS, BULK_MEMTABLE_PAGES } from './keyword-index';
import { connectionScope } from '../search/channel-scope';
import { keywordMatches } from '../search/keyword-scan';
import { toSearchText } from '../text/analyzer';

let db: Db;
let store: PgDocumentStore;
const embedder = new CountingEmbedder({ dimensions: 16 });

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  store = new PgDocumentStore(db);
  await insertConnection(db, 'c1');
});
afterAll(async () => {
  await db.close();
});

function ref(externalId: string, revision = '1'): DocumentRef {
  return {
    externalId,
    title: externalId,
    knowledgeBase: 'Handbook',
    url: `https://example.test/${externalId}`,
    remoteUpdatedAt: '2024-05-01T00:00:00Z',
    revision,
  };
}

function chunksOf(count: number): Chunk[] {
  return Array.from({ length: count }, (_v, ord) => ({
    ord,
    headingPath: 'Guide > Install',
    text: `part ${ord} 报销流程`,
    charStart: ord * 20,
    charEnd: ord * 20 + 10,
  }));
}

async function write(
  externalId: string,
  chunks: Chunk[],
  options: { title?: string; hash?: string; revision?: string } = {},
) {
  const vectors = (await embedder.embed(chunks.map((c) => c.text))).vectors;
  return store.writeDocument({
    connectionId: 'c1',
    ref: ref(externalId, options.revision),
    title: options.title ?? externalId,
    contentHash: options.hash ?? 'h1',
    content: 'x'.repeat(100),
    chunks,
    vectors,
    space: embedder.space,
  });
}

async function rowsInSpace(): Promise<number> {
  const { active } = await readSpaces(db);
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(active!)}`)).rows[0]!.n;
}

describe('PgDocumentStore', () => {
  it('writes a document with its chunks, keyword text and vectors, and replaces them on rewrite', async () => {
    const { documentId } = await write('a', chunksOf(3), { title: '费用 Handbook' });
    const again = await write('a', chunksOf(2), { hash: 'h2', revision: '2' });
    expect(again.documentId).toBe(documentId);
    const chunks = await db.query<{ ord: number; search_text: string; heading_path: string }>(
      'SELECT ord, heading_path, search_text FROM chunks WHERE document_id = $1 ORDER BY ord',
      [documentId],
    );
    expect(chunks.rows.map((r) => r.ord)).toEqual([0, 1]);
    // The keyword column holds the analysed title, heading path and text (stemmed, CJK segmented).
    expect(chunks.rows[0]!.search_text.split(' ')).toEqual(
      expect.arrayContaining(['报销', 'instal', 'guid']),
    );
    expect(await rowsInSpace()).toBe(2);
    const state = (await store.listStates('c1')).get('a');
    expect(state).toMatchObject({
      externalId: 'a',
      contentHash: 'h2',
      revision: '2',
      chunkCount: 2,
      knowledgeBase: 'Handbook',
      remoteUpdatedAt: '2024-05-01T00:00:00.000Z',
    });
    expect(await store.counts('c1')).toEqual({ documents: 1, chunks: 2 });
  });

  it('leaves the previous state intact when a write fails half-way', async () => {
    await write('b', chunksOf(2));
    const bad = chunksOf(3);
    const vectors = (await embedder.embed(bad.map((c) => c.text))).vectors;
    vectors[2] = new Float32Array(16).fill(Number.NaN);
    await expect(
      store.writeDocument({
        connectionId: 'c1',
        ref: ref('b', '9'),
        title: 'b',
        contentHash: 'new',
        content: '',
        chunks: bad,
        vectors,
        space: embedder.space,
      }),
    ).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    // A failure inside the transaction (a chunk row Postgres rejects) rolls back the whole document too.
    const nul = chunksOf(2).map((c) => ({ ...c, text: 'bad\u0000byte' }));
    await expect(write('b', nul, { hash: 'nul' })).rejects.toThrow();
    expect((await store.listStates('c1')).get('b')).toMatchObject({ contentHash: 'h1', chunkCount: 2 });
    expect(await store.counts('c1')).toEqual({ documents: 2, chunks: 4 });
  });

  it('writes a document of thousands of chunks slice by slice, all or nothing', async () => {
    // Over the size from which rows are analysed inside the transaction, one statement at a time.
    const many = chunksOf(1300);
    await write('large', chunksOf(2));
    // Postgres refuses a NUL in the third statement's rows: the first 1,000 rows were already
    // inserted inside the transaction, and the document still keeps its previous state.
    const broken = many.map((c) => (c.ord === 1100 ? { ...c, text: 'bad\u0000byte' } : c));
    await expect(write('large', broken, { hash: 'broken' })).rejects.toThrow();
    expect((await store.listStates('c1')).get('large')).toMatchObject({ contentHash: 'h1', chunkCount: 2 });
    const { documentId } = await write('large', many, { title: '大文件 Large', hash: 'big' });
    const rows = await db.query<{ ord: number; search_text: string; n: number }>(
      `SELECT c.ord, c.search_text, (SELECT count(*)::int FROM ${spaceTable((await readSpaces(db)).active!)} e WHERE e.chunk_id = c.id) AS n
       FROM chunks c WHERE c.document_id = $1 AND c.ord IN (0, 999, 1299) ORDER BY c.ord`,
      [documentId],
    );
    expect(rows.rows.map((r) => r.ord)).toEqual([0, 999, 1299]);
    // Each row analysed as a small write would (title, heading path, its own text), with its vector.
    for (const row of rows.rows) {
      expect(row.search_text).toContain(toSearchText(`part ${row.ord}`));
      expect(row.search_text.split(' ')).toEqual(expect.arrayContaining(['文件', 'larg']));
      expect(row.n).toBe(1);
    }
    expect((await store.listStates('c1')).get('large')).toMatchObject({
      contentHash: 'big',
      chunkCount: 1300,
    });
    await store.deleteDocuments('c1', ['large']);
  });

  it('refuses vectors from a space that is neither active nor pending', async () => {
    const other = new CountingEmbedder({ model: 'other', dimensions: 16 });
    const chunks = chunksOf(1);
    await expect(
      store.writeDocument({
        connectionId: 'c1',
        ref: ref('z'),
        title: 'z',
        contentHash: 'h',
        content: '',
        chunks,
        vectors: (await other.embed(['x'])).vectors,
        space: other.space,
      }),
    ).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    expect((await store.listStates('c1')).has('z')).toBe(false);
  });

  it('touches metadata without rewriting chunks, and deletes documents with their vectors', async () => {
    const before = await db.query<{ id: number }>(
      "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.external_id = 'b' ORDER BY c.id",
    );
    await store.touchDocument(
      'c1',
      { ...ref('b', '7'), url: 'https://example.test/moved', remoteUpdatedAt: 'not a date' },
      'b',
    );
    const after = await db.query<{ id: number }>(
      "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.external_id = 'b' ORDER BY c.id",
    );
    expect(after.rows).toEqual(before.rows);
    expect((await store.listStates('c1')).get('b')).toMatchObject({
      revision: '7',
      url: 'https://example.test/moved',
      remoteUpdatedAt: null,
      contentHash: 'h1',
    });

    expect(await store.deleteDocuments('c1', ['a', 'b', 'never-existed'])).toBe(2);
    expect(await store.counts('c1')).toEqual({ documents: 0, chunks: 0 });
    expect(await rowsInSpace()).toBe(0);
  });

  it('writes into the pending space during a re-embed and cascades deletes there too', async () => {
    const next = new CountingEmbedder({ model: 'next', dimensions: 8 });
    const pending = await createPendingSpace(db, next.space);
    const chunks = chunksOf(2);
    await store.writeDocument({
      connectionId: 'c1',
      ref: ref('p'),
      title: 'p',
      contentHash: 'h',
      content: '',
      chunks,
      vectors: (await next.embed(chunks.map((c) => c.text))).vectors,
      space: next.space,
    });
    const count = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(pending)}`)).rows[0]!.n;
    expect(await count()).toBe(2);
    await store.deleteDocuments('c1', ['p']);
    expect(await count()).toBe(0);
  });

  it('builds the HNSW index in optimize() once a space is large, and drops it before a large burst', async () => {
    const { active } = await readSpaces(db);
    await store.optimize();
    expect(await hasAnnIndex(db, active!)).toBe(false);
    await write(
      'big',
      chunkMarkdown('word '.repeat(ANN_MIN_ROWS * 3), { chunkSize: 3 }).slice(0, ANN_MIN_ROWS),
    );
    await store.optimize();
    expect(await hasAnnIndex(db, active!)).toBe(true);
    await store.prepareBulkWrite(embedder.space, 0);
    expect(await hasAnnIndex(db, active!)).toBe(true);
    // One more document of this connection's average size (2,000 chunks) is a burst worth a rebuild.
    await store.prepareBulkWrite(embedder.space, 1);
    expect(await hasAnnIndex(db, active!)).toBe(false);
  });

  it('puts the BM25 index in bulk mode for a large burst, keeps keyword search working, and ends it in optimize()', async () => {
    const threshold = async () =>
      (
        await db.query<{ value: string }>(
          "SELECT current_setting('pg_textsearch.memtable_pages_threshold') AS value",
        )
      ).rows[0]!.value;
    await store.optimize();
    const defaultThreshold = await threshold();
    expect(defaultThreshold).not.toBe(String(BULK_MEMTABLE_PAGES));
    await store.prepareBulkWrite(embedder.space, 0);
    expect(await threshold()).toBe(defaultThreshold);
    await store.prepareBulkWrite(embedder.space, BULK_KEYWORD_MIN_CHUNKS);
    expect(await threshold()).toBe(String(BULK_MEMTABLE_PAGES));
    await write('bulk', [
      { ord: 0, headingPath: '', text: '差旅报销 quarterly invoice', charStart: 0, charEnd: 10 },
    ]);
    const hits = async () => keywordMatches(db, toSearchText('quarterly invoice'), connectionScope(['c1']));
    expect((await hits()).length).toBe(1);
    await store.optimize();
    expect(await threshold()).toBe(defaultThreshold);
    expect((await hits()).length).toBe(1);
  });

  it('drops the ANN index only when inserting through it would cost more than a rebuild', () => {
    expect([
      shouldDropBeforeBulkWrite(100_000, 300),
      shouldDropBeforeBulkWrite(100_000, 30_000),
      shouldDropBeforeBulkWrite(0, 10),
    ]).toEqual([false, true, true]);
  });
});
