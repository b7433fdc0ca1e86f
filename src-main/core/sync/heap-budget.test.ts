/**
 * HeapBudget collects when the heap has grown by its budget since the last collection (not before,
 * and not on every document once more is live), and a sync checks it as its documents are written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import type { DocumentToWrite } from '../index/document-store';
import { PgDocumentStore } from '../index/pg-document-store';
import { MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { HeapBudget } from './heap-budget';
import { SyncEngine } from './sync-engine';
import { SyncLock } from './sync-lock';

const MB = 2 ** 20;

/** A heap whose use the test sets, and a collection that brings it down to what is "live". */
function fakeHeap(live: number) {
  const heap = { used: live, live, collections: 0 };
  return {
    heap,
    usedHeap: () => heap.used,
    collect: () => {
      heap.collections += 1;
      heap.used = heap.live;
      return true;
    },
  };
}

describe('HeapBudget', () => {
  it('collects only once the heap has grown by the budget since the last collection', () => {
    const { heap, usedHeap, collect } = fakeHeap(100 * MB);
    const budget = new HeapBudget({ growthBytes: 64 * MB, usedHeap, collect });
    heap.used = 163 * MB;
    expect(budget.check()).toBe(false);
    heap.used = 164 * MB;
    expect(budget.check()).toBe(true);
    expect(heap.collections).toBe(1);
    // Right after a collection nothing has grown: no second one.
    expect(budget.check()).toBe(false);
    expect(budget.collections).toBe(1);
  });

  it('measures growth from what the last collection left, so a larger live set is not collected on every document', () => {
    const { heap, usedHeap, collect } = fakeHeap(100 * MB);
    const budget = new HeapBudget({ growthBytes: 64 * MB, usedHeap, collect });
    heap.live = 200 * MB;
    heap.used = 300 * MB;
    expect(budget.check()).toBe(true);
    heap.used = 250 * MB;
    expect(budget.check()).toBe(false);
    heap.used = 264 * MB;
    expect(budget.check()).toBe(true);
    expect(heap.collections).toBe(2);
  });

  it('stops asking a runtime that offers no collection', () => {
    let asked = 0;
    let used = 0;
    const budget = new HeapBudget({
      growthBytes: MB,
      usedHeap: () => used,
      collect: () => {
        asked += 1;
        return false;
      },
    });
    used = 10 * MB;
    expect(budget.check()).toBe(false);
    used = 20 * MB;
    expect(budget.check()).toBe(false);
    expect(asked).toBe(1);
  });
});

describe('a sync and its heap budget', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('checks the budget as documents are written, so a long run collects as it goes', async () => {
    const { heap, usedHeap, collect } = fakeHeap(50 * MB);
    const budget = new HeapBudget({ growthBytes: 30 * MB, usedHeap, collect });
    /** Each written document leaves 10 MB behind until a collection. */
    class GrowingStore extends PgDocumentStore {
      override writeDocuments(docs: DocumentToWrite[]): Promise<{ documentId: number }[]> {
        heap.used += 10 * MB * docs.length;
        return super.writeDocuments(docs);
      }
      override writeDocument(doc: DocumentToWrite): Promise<{ documentId: number }> {
        heap.used += 10 * MB;
        return super.writeDocument(doc);
      }
    }
    const engine = new SyncEngine({
      db,
      store: new GrowingStore(db),
      lock: new SyncLock(db),
      heapBudget: () => budget,
    });
    await insertConnection(db, 'heap');
    const connector = new MemoryConnector();
    for (let i = 0; i < 40; i++) connector.put(`doc-${i}`, `# Note ${i}\n\nText of note ${i}.`);
    const run = await engine.run({ connectionId: 'heap', connector });
    expect(run.status).toBe('succeeded');
    // 400 MB left behind with 30 MB allowed: collected as it went, not once at the end. A group
    // commit writes up to 32 documents at once, so the checks see the heap in steps of a group.
    expect(heap.collections).toBeGreaterThanOrEqual(2);
    expect(budget.collections).toBe(heap.collections);
  });
});
