import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import type { Chunk } from '../chunking/chunker';
import type { DocumentRef } from '../connectors/connector';
import { CountingEmbedder, insertConnection } from '../../testing/index-fixtures';
import { createPendingSpace, dropEverySpace, ensureActiveSpace } from './embedding-spaces';
import { LARGE_CONTENT_CHARS } from './document-rows';
import { PgDocumentStore } from './pg-document-store';
import { BULK_KEYWORD_MIN_CHUNKS, BULK_MEMTABLE_PAGES } from './keyword-index';
import { connectionScope } from '../search/channel-scope';
import { keywordMatches } from '../search/keyword-scan';
import { toSearchText } from '../text/analyzer';

let db: Db;
let store: PgDocumentStore;

beforeAll(async () => {
  db = await openDatabase();
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
  options: { title?: string; hash?: string; revision?: string; content?: string } = {},
) {
  return store.writeDocument({
    connectionId: 'c1',
    ref: ref(externalId, options.revision),
    title: options.title ?? externalId,
    contentHash: options.hash ?? 'h1',
    content: options.content ?? 'x'.repeat(100),
    chunks,
  });
}

/** External ids of the documents waiting for the semantic index. */
async function queued(): Promise<string[]> {
  const rows = await db.query<{ external_id: string }>(
    'SELECT d.external_id FROM embedding_queue q JOIN documents d ON d.id = q.document_id ORDER BY 1',
  );
  return rows.rows.map((r) => r.external_id);
}

describe('PgDocumentStore', () => {
  it('writes a document with its chunks and keyword text, and replaces them on rewrite', async () => {
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
    // A failure inside the transaction (a chunk row Postgres rejects) rolls back the whole document too.
    const nul = chunksOf(2).map((c) => ({ ...c, text: 'bad\u0000byte' }));
    await expect(write('b', nul, { hash: 'nul' })).rejects.toThrow();
    expect((await store.listStates('c1')).get('b')).toMatchObject({ contentHash: 'h1', chunkCount: 2 });
    expect(await store.counts('c1')).toEqual({ documents: 2, chunks: 4 });
  });

  it('stores a text over LARGE_CONTENT_CHARS whole, and a failed rewrite keeps the previous one', async () => {
    // Sent in a statement of its own, framed once (large-text-statement.ts): CJK, emoji and
    // newlines, so UTF-8 bytes and UTF-16 units differ.
    const first = '数据库事务的一致性 😀\n'.repeat(Math.ceil(LARGE_CONTENT_CHARS / 12) + 1);
    expect(first.length).toBeGreaterThan(LARGE_CONTENT_CHARS);
    await write('long', chunksOf(2), { content: first });
    const nul = chunksOf(2).map((c) => ({ ...c, text: 'bad\u0000byte' }));
    await expect(write('long', nul, { hash: 'nul', content: `${first}改过的结尾。` })).rejects.toThrow();
    const stored = await db.query<{ same: boolean; hash: string }>(
      `SELECT content = $1 AS same, content_hash AS hash FROM documents WHERE external_id = 'long'`,
      [first],
    );
    expect(stored.rows[0]).toEqual({ same: true, hash: 'h1' });
    // The later tests count every document of the connection.
    expect(await store.deleteDocuments('c1', ['long'])).toBe(1);
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
    const rows = await db.query<{ ord: number; search_text: string }>(
      `SELECT c.ord, c.search_text FROM chunks c WHERE c.document_id = $1 AND c.ord IN (0, 999, 1299) ORDER BY c.ord`,
      [documentId],
    );
    expect(rows.rows.map((r) => r.ord)).toEqual([0, 999, 1299]);
    // Each row analysed as a small write would (title, heading path, its own text).
    for (const row of rows.rows) {
      expect(row.search_text).toContain(toSearchText(`part ${row.ord}`));
      expect(row.search_text.split(' ')).toEqual(expect.arrayContaining(['文件', 'larg']));
    }
    expect((await store.listStates('c1')).get('large')).toMatchObject({
      contentHash: 'big',
      chunkCount: 1300,
    });
    await store.deleteDocuments('c1', ['large']);
  });

  it('touches metadata without rewriting chunks, and deletes documents', async () => {
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
  });

  it('queues what it writes for the semantic index while there is one, and nothing with keyword search only', async () => {
    await write('k', chunksOf(1));
    expect(await queued()).toEqual([]);
    const embedder = new CountingEmbedder({ dimensions: 16 });
    await ensureActiveSpace(db, embedder.space);
    // A new space queues every document there is; a write queues its document again.
    expect(await queued()).toEqual(['k']);
    await db.query('DELETE FROM embedding_queue');
    await write('q', chunksOf(2));
    expect(await queued()).toEqual(['q']);
    await createPendingSpace(db, new CountingEmbedder({ model: 'next', dimensions: 8 }).space);
    expect(await queued()).toEqual(['k', 'q']);
    // A document refused before is tried again at once when its text is rewritten.
    await db.query("UPDATE embedding_queue SET attempts = 3, retry_at = now() + interval '1 day'");
    await write('q', chunksOf(1), { hash: 'h9', revision: '9' });
    const retry = await db.query<{ attempts: number; retry_at: Date | null }>(
      "SELECT q.attempts, q.retry_at FROM embedding_queue q JOIN documents d ON d.id = q.document_id WHERE d.external_id = 'q'",
    );
    expect(retry.rows).toEqual([{ attempts: 0, retry_at: null }]);
    await store.deleteDocuments('c1', ['q']);
    expect(await queued()).toEqual(['k']);
    await dropEverySpace(db);
    expect(await queued()).toEqual([]);
    await write('after', chunksOf(1));
    expect(await queued()).toEqual([]);
    await store.deleteDocuments('c1', ['k', 'after']);
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
    await store.prepareBulkWrite(0);
    expect(await threshold()).toBe(defaultThreshold);
    await store.prepareBulkWrite(BULK_KEYWORD_MIN_CHUNKS);
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
});
