import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { accessGate } from '../db/access-gate';
import { CountingEmbedder, insertConnection } from '../../testing/index-fixtures';
import { HybridSearch } from '../search/hybrid-search';
import { ensureActiveSpace } from './embedding-spaces';
import { PgDocumentStore } from './pg-document-store';

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

async function writeDoc(externalId: string, text: string) {
  const chunks = [{ ord: 0, headingPath: '', text, charStart: 0, charEnd: text.length }];
  return store.writeDocument({
    connectionId: 'c1',
    ref: {
      externalId,
      title: externalId,
      knowledgeBase: 'kb',
      url: null,
      remoteUpdatedAt: null,
      revision: '1',
    },
    title: externalId,
    contentHash: externalId,
    content: text,
    chunks,
  });
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('searches go before a sync’s queued writes (access gate)', () => {
  it('a document write that asks during a read commits after the read, whose statements all see the old index', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const seen: number[] = [];
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0]!.n;
    const read = accessGate(db).read(async () => {
      seen.push(await count());
      await held;
      seen.push(await count());
    });
    await settle();
    const write = writeDoc('late', '报销 流程 travel expenses');
    await settle();
    expect(accessGate(db).waitingWrites).toBe(1);
    release();
    await read;
    await write;
    // Both statements of the read ran before the write's transaction: no write slipped between them.
    expect(seen).toEqual([0, 0]);
    expect(await count()).toBe(1);
  });

  it('HybridSearch holds the gate for all of its statements', async () => {
    await writeDoc('first', '报销 流程 invoice approval policy');
    const search = new HybridSearch({ db, queryEmbedder: () => embedder });
    const order: string[] = [];
    const searching = search.search({ query: 'invoice approval' }).then((response) => {
      const ids = response.hits.map((h) => h.externalId);
      order.push(
        `search ${ids.includes('first') ? 'finds' : 'misses'} first, ${ids.includes('second') ? 'sees' : 'does not see'} second`,
      );
    });
    // The search has started (its first statement is queued); a write now waits for all of it.
    const writing = writeDoc('second', 'invoice approval second copy').then(() => order.push('write'));
    await Promise.all([searching, writing]);
    expect(order).toEqual(['search finds first, does not see second', 'write']);
  });
});
