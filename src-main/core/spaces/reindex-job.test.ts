import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReindexStatus } from '@shared/models';
import { openDatabase, type Db } from '../db/database';
import type { EmbedResult, Embedder, EmbeddingSpace } from '../embedding/embedder';
import { HybridSearch } from '../search/hybrid-search';
import { SyncEngine } from '../sync/sync-engine';
import { SyncLock } from '../sync/sync-lock';
import { CountingEmbedder, MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { createPendingSpace, ensureActiveSpace, readSpaces, spaceTable } from '../index/embedding-spaces';
import { PgDocumentStore } from '../index/pg-document-store';
import { catchUpAndPromote, reindexCost, runReindex } from './reindex-job';

let db: Db;
let engine: SyncEngine;
const oldModel = new CountingEmbedder({ model: 'old', dimensions: 64 });
const connector = new MemoryConnector();

/** Wraps an embedder to run a hook before its n-th call: "something happens mid-job". */
class HookedEmbedder implements Embedder {
  calls = 0;
  constructor(
    private readonly inner: CountingEmbedder,
    private readonly onCall: (call: number) => Promise<void>,
  ) {}
  get space(): EmbeddingSpace {
    return this.inner.space;
  }
  async embed(
    texts: string[],
    options?: { kind?: 'document' | 'query'; signal?: AbortSignal },
  ): Promise<EmbedResult> {
    this.calls += 1;
    await this.onCall(this.calls);
    return this.inner.embed(texts, options);
  }
}

async function tableExists(name: string): Promise<boolean> {
  return (
    ((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_tables WHERE tablename = $1', [name]))
      .rows[0]?.n ?? 0) > 0
  );
}

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, oldModel.space);
  await insertConnection(db, 'notes');
  for (let i = 0; i < 12; i++)
    connector.put(
      `n${i}`,
      i % 2
        ? `# Note ${i}\n\nGardening tips number ${i}: water the tomatoes.`
        : `# 笔记 ${i}\n\n第${i}条：报销需要发票。`,
    );
  engine = new SyncEngine({ db, store: new PgDocumentStore(db), lock: new SyncLock(db) });
  await engine.run({ connectionId: 'notes', connector, embedder: oldModel });
});
afterAll(async () => {
  await db.close();
});

describe('runReindex', () => {
  it('can be cancelled, then resumes, keeps the old space serving until the flip, and catches up chunks synced meanwhile', async () => {
    const newModel = new CountingEmbedder({ model: 'new', dimensions: 32 });
    const spacesAsked: string[] = [];
    const search = new HybridSearch({
      db,
      queryEmbedder: (space) => {
        spacesAsked.push(space.model);
        return space.model === 'old' ? oldModel : space.model === 'new' ? newModel : null;
      },
    });
    const before = await search.search({ query: '报销 发票' });
    const { active: oldSpace } = await readSpaces(db);

    // 1. Cancel after the first batch: the old space still serves, the pending one is half full.
    const controller = new AbortController();
    const cancelling = new HookedEmbedder(newModel, async (call) => {
      if (call === 2) controller.abort();
    });
    await expect(
      runReindex({ db, embedder: cancelling, batchSize: 4, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    const halfway = await readSpaces(db);
    expect(halfway.active?.model).toBe('old');
    expect(halfway.pending?.model).toBe('new');

    // 2. Resume. Mid-job, a search answers from the old space and a sync adds a document.
    const progress: ReindexStatus[] = [];
    let midSearch: Awaited<ReturnType<HybridSearch['search']>> | null = null;
    const resuming = new HookedEmbedder(newModel, async (call) => {
      if (call !== 1) return;
      spacesAsked.length = 0;
      midSearch = await search.search({ query: '报销 发票' });
      connector.put('late', '# Late note\n\nWritten while the re-embed was running: compost recipe.');
      await engine.run({ connectionId: 'notes', connector, embedder: oldModel });
    });
    await runReindex({ db, embedder: resuming, batchSize: 4, onProgress: (p) => progress.push(p) });

    expect(spacesAsked).toEqual(['old']);
    expect(midSearch!.hits.map((h) => h.key)).toEqual(before.hits.map((h) => h.key));
    const after = await readSpaces(db);
    expect([after.active?.model, after.pending]).toEqual(['new', null]);
    expect(await tableExists(spaceTable(oldSpace!))).toBe(false);
    const { chunks } = await reindexCost(db);
    const vectors = (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(after.active!)}`)
    ).rows[0]?.n;
    expect(vectors).toBe(chunks);
    expect(progress.at(-1)).toEqual({
      running: false,
      done: chunks,
      total: chunks,
      activeSpace: 'test/new/32',
      pendingSpace: null,
    });
    expect(
      progress.some((p) => p.running && p.pendingSpace === 'test/new/32' && p.activeSpace === 'test/old/64'),
    ).toBe(true);

    // 3. After the flip, queries use the new space only, and the late document is found by vector.
    spacesAsked.length = 0;
    const late = await search.search({ query: 'compost recipe' });
    expect(spacesAsked).toEqual(['new']);
    expect(late.hits[0]).toMatchObject({ externalId: 'late', ranks: { vector: 1 } });

    // A sync still holding the old model fails with a clear error instead of mixing spaces.
    connector.put('after', '# After\n\nWritten with a stale embedder.');
    const stale = await engine.run({ connectionId: 'notes', connector, embedder: oldModel });
    expect(stale).toMatchObject({ status: 'failed', error: { code: 'EMBEDDING_FAILED' } });
    expect(stale.error?.message).toContain('test/old/64');
    expect(
      (await engine.run({ connectionId: 'notes', connector, embedder: newModel })).counters,
    ).toMatchObject({ added: 1, failed: 0 });
  });

  it('embeds chunks written after the last fill inside the flip, so none lacks a vector in the new space', async () => {
    const third = new CountingEmbedder({ model: 'third', dimensions: 16 });
    const pending = await createPendingSpace(db, third.space);
    const { active } = await readSpaces(db);
    const beforeFlip = (await reindexCost(db)).chunks;
    // Nothing filled yet: every chunk, including one synced right now, must be embedded by the flip.
    connector.put('last-minute', '# Last minute\n\nSynced just before the flip.');
    await engine.run({
      connectionId: 'notes',
      connector,
      embedder: new CountingEmbedder({ model: active!.model, dimensions: active!.dimensions }),
    });
    const embedded = await catchUpAndPromote(db, pending, third);
    expect(embedded).toBe(beforeFlip + 1);
    expect((await readSpaces(db)).active?.model).toBe('third');
    expect(
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(pending)}`)).rows[0]?.n,
    ).toBe(beforeFlip + 1);
  });
});
