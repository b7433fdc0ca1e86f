import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chunk } from '../chunking/chunker';
import { openDatabase, type Db } from '../db/database';
import type { DocumentToWrite } from '../index/document-store';
import { PgDocumentStore } from '../index/pg-document-store';
import { insertConnection } from '../../testing/index-fixtures';
import { WriteBatcher } from './write-batcher';

let db: Db;
let store: PgDocumentStore;

beforeAll(async () => {
  db = await openDatabase();
  store = new PgDocumentStore(db);
  await insertConnection(db, 'w');
});
afterAll(async () => {
  await db.close();
});

function doc(externalId: string, texts: string[]): DocumentToWrite {
  const chunks: Chunk[] = texts.map((text, ord) => ({
    ord,
    headingPath: '',
    text,
    charStart: 0,
    charEnd: text.length,
  }));
  return {
    connectionId: 'w',
    ref: {
      externalId,
      title: externalId,
      knowledgeBase: '',
      url: null,
      remoteUpdatedAt: null,
      revision: '1',
    },
    title: externalId,
    contentHash: `hash-${externalId}`,
    content: texts.join('\n'),
    chunks,
  };
}

async function storedChunks(externalId: string): Promise<string[]> {
  const rows = await db.query<{ content: string }>(
    "SELECT c.content FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.connection_id = 'w' AND d.external_id = $1 ORDER BY c.ord",
    [externalId],
  );
  return rows.rows.map((r) => r.content);
}

describe('WriteBatcher', () => {
  it('writes documents queued together in one group, each with its own id and chunks', async () => {
    const writer = new WriteBatcher(store, { maxDocuments: 10 });
    const docs = Array.from({ length: 10 }, (_v, i) => doc(`g${i}`, [`first ${i} 报销`, `second ${i}`]));
    const written = await Promise.all(docs.map((d) => writer.write(d)));
    expect(writer.groups).toBe(1);
    expect(new Set(written.map((w) => w.documentId)).size).toBe(10);
    const states = await store.listStates('w');
    for (let i = 0; i < 10; i++) {
      expect(states.get(`g${i}`)).toMatchObject({
        id: written[i]!.documentId,
        contentHash: `hash-g${i}`,
        chunkCount: 2,
      });
      expect(await storedChunks(`g${i}`)).toEqual([`first ${i} 报销`, `second ${i}`]);
    }
  });

  it('fails only the bad document of a group; the others land, and the bad one keeps its last good state', async () => {
    await store.writeDocument(doc('bad', ['good old text']));
    const writer = new WriteBatcher(store);
    // Postgres refuses NUL in text: the whole group rolls back, then each document is written alone.
    const results = await Promise.allSettled([
      writer.write(doc('ok1', ['one'])),
      writer.write(doc('bad', ['broken\u0000byte'])),
      writer.write(doc('ok2', ['two'])),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(writer.groups).toBe(0);
    expect(await storedChunks('ok1')).toEqual(['one']);
    expect(await storedChunks('ok2')).toEqual(['two']);
    expect(await storedChunks('bad')).toEqual(['good old text']);
  });

  it('bounds a group by chunks: a long document goes in a transaction of its own', async () => {
    const groups: number[] = [];
    const counting = {
      writeDocument: (d: DocumentToWrite) => store.writeDocument(d).finally(() => groups.push(1)),
      writeDocuments: (ds: DocumentToWrite[]) =>
        store.writeDocuments(ds).finally(() => groups.push(ds.length)),
    };
    const writer = new WriteBatcher(counting, { maxChunks: 4 });
    await Promise.all([
      writer.write(doc('s1', ['a'])),
      writer.write(doc('s2', ['b'])),
      writer.write(doc('long', ['1', '2', '3', '4', '5'])),
      writer.write(doc('s3', ['c'])),
    ]);
    expect(groups).toEqual([2, 1, 1]);
    expect(await storedChunks('long')).toEqual(['1', '2', '3', '4', '5']);
  });

  it('writes shorter groups while searches run, full ones when none does', async () => {
    const groups: number[] = [];
    const counting = {
      writeDocument: (d: DocumentToWrite) => store.writeDocument(d).finally(() => groups.push(1)),
      writeDocuments: (ds: DocumentToWrite[]) =>
        store.writeDocuments(ds).finally(() => groups.push(ds.length)),
    };
    let searching = true;
    const writer = new WriteBatcher(counting, { searching: () => searching, busyMaxChunks: 2 });
    await Promise.all(['b1', 'b2', 'b3', 'b4', 'b5'].map((id) => writer.write(doc(id, [id]))));
    expect(groups).toEqual([2, 2, 1]);
    groups.length = 0;
    searching = false;
    await Promise.all(['q1', 'q2', 'q3', 'q4', 'q5'].map((id) => writer.write(doc(id, [id]))));
    expect(groups).toEqual([5]);
  });
});
