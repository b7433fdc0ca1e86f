import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncProgress } from '@shared/models';
import { openDatabase, type Db } from '../db/database';
import { chunkMarkdown } from '../chunking/chunker';
import { BULK_MEMTABLE_PAGES } from '../index/keyword-index';
import { PgDocumentStore } from '../index/pg-document-store';
import { HybridSearch } from '../search/hybrid-search';
import { MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { CairnError } from '../errors';
import { contentHash, normalizeText } from '../text/normalize';
import { SyncEngine } from './sync-engine';
import { SyncLock } from './sync-lock';
import { closeAbandonedRuns, listRuns } from './sync-runs';

let db: Db;
let store: PgDocumentStore;
let engine: SyncEngine;
beforeAll(async () => {
  db = await openDatabase();
  store = new PgDocumentStore(db);
  engine = new SyncEngine({ db, store, lock: new SyncLock(db) });
});
afterAll(async () => {
  await db.close();
});

function generatedDoc(i: number, edit = ''): string {
  if (i % 2 === 0) {
    return `# 文档 ${i}\n\n## 报销\n\n第${i}号文档说明差旅报销的流程${edit}。员工提交申请，经理审批。\n\n## 附录\n\n${'补充说明。'.repeat(i % 7)}`;
  }
  return `# Document ${i}\n\n## Setup\n\nDocument ${i} explains how to set up the build${edit}.\n\n## Notes\n\n${'More notes here. '.repeat(i % 9)}`;
}

async function connectionWith(id: string, count: number): Promise<MemoryConnector> {
  await insertConnection(db, id);
  const connector = new MemoryConnector();
  for (let i = 0; i < count; i++) connector.put(`doc-${String(i).padStart(3, '0')}`, generatedDoc(i));
  return connector;
}

function resetCounts(connector: MemoryConnector): void {
  connector.fetches = [];
}

/** The index holds exactly the connector's documents, each with its current text and chunks. */
async function expectIndexMatches(connectionId: string, connector: MemoryConnector): Promise<void> {
  const rows = await db.query<{
    external_id: string;
    content_hash: string;
    chunks: string[];
  }>(
    `SELECT d.external_id, d.content_hash,
            coalesce(array_agg(c.content ORDER BY c.ord) FILTER (WHERE c.id IS NOT NULL), '{}') AS chunks
     FROM documents d LEFT JOIN chunks c ON c.document_id = d.id
     WHERE d.connection_id = $1 GROUP BY d.id ORDER BY d.external_id`,
    [connectionId],
  );
  const expected = [...connector.documents.values()]
    .map((doc) => {
      const text = normalizeText(doc.markdown);
      const chunks = chunkMarkdown(text).map((c) => c.text);
      return {
        external_id: doc.ref.externalId,
        content_hash: contentHash(text),
        chunks,
      };
    })
    .sort((a, b) => a.external_id.localeCompare(b.external_id));
  expect(rows.rows).toEqual(expected);
}

describe('SyncEngine', () => {
  it('syncs 200 documents, then fetches and writes only what changed, and the index matches the source', async () => {
    const connector = await connectionWith('gen', 200);
    const first = await engine.run({ connectionId: 'gen', connector });
    expect(first).toMatchObject({
      status: 'succeeded',
      counters: { seen: 200, added: 200, updated: 0, unchanged: 0, deleted: 0, failed: 0 },
    });
    await expectIndexMatches('gen', connector);

    resetCounts(connector);
    for (const i of [3, 50, 101])
      connector.put(`doc-${String(i).padStart(3, '0')}`, generatedDoc(i, ' (revised)'));
    connector.documents.delete('doc-007');
    connector.put('new-a', '# 新增文档\n\n关于报销的补充规定。');
    connector.put('new-b', '# New document\n\nA brand new page about onboarding.');
    // A new revision with the very same text: fetched, hashed, touched; never rewritten.
    connector.put('doc-020', generatedDoc(20));
    const second = await engine.run({ connectionId: 'gen', connector });

    expect(second.counters).toMatchObject({
      seen: 201,
      added: 2,
      updated: 3,
      unchanged: 196,
      deleted: 1,
      failed: 0,
    });
    expect(connector.fetches.sort()).toEqual(['doc-003', 'doc-020', 'doc-050', 'doc-101', 'new-a', 'new-b']);
    const changed = ['doc-003', 'doc-050', 'doc-101', 'new-a', 'new-b'].map((id) =>
      normalizeText(connector.documents.get(id)!.markdown),
    );
    const expectedInputs = changed.flatMap((text) => chunkMarkdown(text)).length;
    expect(second.counters.chunksWritten).toBe(expectedInputs);
    await expectIndexMatches('gen', connector);
    expect((await store.listStates('gen')).get('doc-020')?.revision).toBe('2');

    resetCounts(connector);
    const third = await engine.run({ connectionId: 'gen', connector });
    expect(third.counters).toMatchObject({ seen: 201, unchanged: 201, added: 0, updated: 0, deleted: 0 });
    expect([connector.fetches.length, third.counters.chunksWritten]).toEqual([0, 0]);
    const connection = (
      await db.query<{ sync_status: string; sync_error: string | null; last_sync_at: Date | null }>(
        "SELECT sync_status, sync_error, last_sync_at FROM connections WHERE id = 'gen'",
      )
    ).rows[0];
    expect(connection).toMatchObject({
      sync_status: 'synced',
      sync_error: null,
      last_sync_at: expect.any(Date),
    });
  });

  it('keeps every document in its last good state when a sync is aborted, and the next sync completes', async () => {
    const connector = await connectionWith('abort', 30);
    await engine.run({ connectionId: 'abort', connector });
    const before = await store.listStates('abort');
    for (let i = 0; i < 30; i++) connector.put(`doc-${String(i).padStart(3, '0')}`, generatedDoc(i, ' v2'));
    connector.documents.delete('doc-029');
    const controller = new AbortController();
    connector.beforeFetch = () => {
      if (connector.fetches.length >= 10) controller.abort();
    };
    const progress: SyncProgress[] = [];
    const cancelled = await engine.run({
      connectionId: 'abort',
      connector,
      signal: controller.signal,
      onProgress: (p) => progress.push(p),
    });
    expect(cancelled.status).toBe('cancelled');
    expect(progress.at(-1)?.phase).toBe('done');

    const after = await store.listStates('abort');
    expect(after.size).toBe(30); // nothing deleted by a cancelled run
    const v2 = new Set([...connector.documents.values()].map((d) => contentHash(normalizeText(d.markdown))));
    let updated = 0;
    for (const [id, state] of after) {
      if (state.contentHash === before.get(id)!.contentHash) continue;
      expect(v2.has(state.contentHash)).toBe(true);
      updated += 1;
    }
    expect(updated).toBeLessThan(30);
    // Each document's chunks belong to the version its row says it has.
    const rows = await db.query<{ content: string; chunk_count: number; chunks: string[] }>(
      `SELECT d.content, d.chunk_count, array_agg(c.content ORDER BY c.ord) AS chunks
       FROM documents d JOIN chunks c ON c.document_id = d.id
       WHERE d.connection_id = 'abort' GROUP BY d.id`,
    );
    expect(rows.rows).toHaveLength(30);
    for (const row of rows.rows) {
      const expected = chunkMarkdown(row.content).map((c) => c.text);
      expect({ chunks: row.chunks, count: row.chunk_count }).toEqual({
        chunks: expected,
        count: expected.length,
      });
    }
    const connection = (
      await db.query<{ sync_status: string }>("SELECT sync_status FROM connections WHERE id = 'abort'")
    ).rows[0];
    expect(connection?.sync_status).toBe('synced');

    connector.beforeFetch = null;
    const next = await engine.run({ connectionId: 'abort', connector });
    expect(next).toMatchObject({ status: 'succeeded', counters: { deleted: 1, failed: 0 } });
    expect(next.counters.updated).toBe(29 - updated);
    await expectIndexMatches('abort', connector);
  });

  it('records a cancelled run only once its writes in flight have landed, with every document it wrote counted', async () => {
    const connector = await connectionWith('abort-in-flight', 12);
    await engine.run({ connectionId: 'abort-in-flight', connector });
    const before = await store.listStates('abort-in-flight');
    for (let i = 0; i < 12; i++) connector.put(`doc-${String(i).padStart(3, '0')}`, generatedDoc(i, ' v3'));
    // The first write to reach the store cancels the run and is held there until the test lets it go.
    const controller = new AbortController();
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const holding: Pick<PgDocumentStore, 'writeDocument' | 'writeDocuments'> = {
      writeDocument: async (doc) => {
        controller.abort();
        await held;
        return store.writeDocument(doc);
      },
      writeDocuments: async (docs) => {
        controller.abort();
        await held;
        return store.writeDocuments(docs);
      },
    };
    const holdingStore = Object.assign(Object.create(store) as PgDocumentStore, holding);
    const cancellable = new SyncEngine({ db, store: holdingStore, lock: new SyncLock(db) });
    const done = cancellable.run({
      connectionId: 'abort-in-flight',
      connector,
      signal: controller.signal,
    });
    // Room for a run that does not wait for its writes to be recorded as finished meanwhile.
    let turns = 0;
    const settledEarly = await Promise.race([
      done.then(() => true),
      (async () => {
        while (!controller.signal.aborted || turns < 200) {
          turns += 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
        return false;
      })(),
    ]);
    letGo();
    const run = await done;
    const after = await store.listStates('abort-in-flight');
    const written = [...after].filter(([id, state]) => state.contentHash !== before.get(id)!.contentHash);
    expect({ settledEarly, status: run.status, updated: run.counters.updated }).toEqual({
      settledEarly: false,
      status: 'cancelled',
      updated: written.length,
    });
    expect(written.length).toBeGreaterThan(0);
    const recorded = (await listRuns(db, 'abort-in-flight', 1))[0];
    expect(recorded?.counters.updated).toBe(written.length);
  });

  it('leaves the BM25 index out of bulk mode when a large sync is cancelled before its optimize step', async () => {
    const threshold = async () =>
      (
        await db.query<{ value: string }>(
          "SELECT current_setting('pg_textsearch.memtable_pages_threshold') AS value",
        )
      ).rows[0]!.value;
    const before = await threshold();
    // Enough planned documents for the bulk mode (BULK_KEYWORD_MIN_CHUNKS), cancelled after a few fetches.
    const connector = await connectionWith('bulk-cancel', 1200);
    const controller = new AbortController();
    let seenInBulk = '';
    connector.beforeFetch = async () => {
      if (!seenInBulk) seenInBulk = await threshold();
      if (connector.fetches.length >= 20) controller.abort();
    };
    const run = await engine.run({
      connectionId: 'bulk-cancel',
      connector,
      signal: controller.signal,
    });
    const after = await threshold();
    expect({ status: run.status, seenInBulk, after }).toEqual({
      status: 'cancelled',
      seenInBulk: String(BULK_MEMTABLE_PAGES),
      after: before,
    });
  });

  it('deletes nothing when the listing breaks off, indexes what it listed, and catches up next time', async () => {
    const connector = await connectionWith('flaky', 20);
    await engine.run({ connectionId: 'flaky', connector });
    for (const id of ['doc-015', 'doc-016', 'doc-017']) connector.documents.delete(id);
    connector.put('doc-001', generatedDoc(1, ' changed'));
    connector.failListingAfter = 5;
    const broken = await engine.run({ connectionId: 'flaky', connector });
    expect(broken).toMatchObject({
      status: 'partial',
      counters: { seen: 5, updated: 1, deleted: 0 },
      error: { code: 'SOURCE_UNREACHABLE' },
    });
    expect((await store.counts('flaky')).documents).toBe(20);
    const connection = (
      await db.query<{ sync_error: string | null }>("SELECT sync_error FROM connections WHERE id = 'flaky'")
    ).rows[0];
    expect(connection?.sync_error).toContain('Listing broke off');

    connector.failListingAfter = 0;
    expect(await engine.run({ connectionId: 'flaky', connector })).toMatchObject({
      status: 'failed',
      counters: { seen: 0, deleted: 0 },
    });
    expect((await store.counts('flaky')).documents).toBe(20);

    connector.failListingAfter = null;
    expect(await engine.run({ connectionId: 'flaky', connector })).toMatchObject({
      status: 'succeeded',
      counters: { deleted: 3 },
    });
    await expectIndexMatches('flaky', connector);
  });

  it('runs exactly one of two syncs of one connection started at once', async () => {
    const connector = await connectionWith('twice', 10);
    const [a, b] = await Promise.allSettled([
      engine.run({ connectionId: 'twice', connector }),
      engine.run({ connectionId: 'twice', connector }),
    ]);
    const outcomes = [a, b]
      .map((r) => (r.status === 'fulfilled' ? r.value.status : (r.reason as { code: string }).code))
      .sort();
    expect(outcomes).toEqual(['ALREADY_SYNCING', 'succeeded']);
    expect(connector.fetches).toHaveLength(10);
    const runs = (
      await db.query<{ n: number }>("SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = 'twice'")
    ).rows[0]?.n;
    expect(runs).toBe(1);
    // The lock is released afterwards.
    expect((await engine.run({ connectionId: 'twice', connector })).status).toBe('succeeded');
  });

  it('records a failing document, indexes the others, and retries only the failures next time', async () => {
    const connector = await connectionWith('partial', 8);
    connector.failFetch.add('doc-002');
    connector.beforeFetch = (ref) => {
      if (ref.externalId === 'doc-005') throw new CairnError('DOCUMENT_FAILED', 'The platform sent no text.');
    };
    try {
      const run = await engine.run({ connectionId: 'partial', connector });
      expect(run.status).toBe('partial');
      expect(run.counters).toMatchObject({ added: 6, failed: 2 });
      expect(run.errors.sort((x, y) => x.externalId.localeCompare(y.externalId))).toEqual([
        { externalId: 'doc-002', title: 'doc-002', code: 'SOURCE_ERROR', message: 'Cannot read doc-002.' },
        {
          externalId: 'doc-005',
          title: 'doc-005',
          code: 'DOCUMENT_FAILED',
          message: 'The platform sent no text.',
        },
      ]);
      const connection = (
        await db.query<{ sync_status: string; sync_error: string }>(
          "SELECT sync_status, sync_error FROM connections WHERE id = 'partial'",
        )
      ).rows[0];
      expect(connection?.sync_status).toBe('synced');
      expect(connection?.sync_error).toMatch(/^2 documents failed/);
    } finally {
      connector.beforeFetch = null;
    }
    connector.failFetch.clear();
    resetCounts(connector);
    const retry = await engine.run({ connectionId: 'partial', connector });
    expect(retry).toMatchObject({ status: 'succeeded', counters: { added: 2, unchanged: 6 } });
    expect(connector.fetches.sort()).toEqual(['doc-002', 'doc-005']);
    await expectIndexMatches('partial', connector);
  });

  it('records a document whose connector aborted on its own (not our cancel) as failed, not silently skipped', async () => {
    const connector = await connectionWith('inner-abort', 4);
    connector.beforeFetch = (ref) => {
      if (ref.externalId === 'doc-001') throw new DOMException('The operation was aborted.', 'AbortError');
    };
    const run = await engine.run({ connectionId: 'inner-abort', connector });
    expect(run).toMatchObject({ status: 'partial', counters: { added: 3, failed: 1 } });
    expect(run.errors.map((error) => error.externalId)).toEqual(['doc-001']);
  });

  it('closes the run even when a failure carries text Postgres cannot store (NUL, lone surrogates)', async () => {
    const connector = await connectionWith('unstorable', 2);
    connector.put('nul\u0000id', '# NUL\n\nAn id no text column takes.');
    connector.put('surrogate', '# S\n\nText.');
    connector.beforeFetch = (ref) => {
      if (ref.externalId === 'surrogate')
        throw new CairnError('SOURCE_ERROR', 'The platform said: \ud800 \u0000 broken');
    };
    const run = await engine.run({ connectionId: 'unstorable', connector });
    expect(run).toMatchObject({ status: 'partial', counters: { added: 2, failed: 2 } });
    const [stored] = await listRuns(db, 'unstorable');
    expect(stored).toMatchObject({ status: 'partial', counters: { failed: 2 } });
    expect(JSON.stringify(stored?.errors)).not.toMatch(/\\u0000|\\ud800/);
    const connection = (
      await db.query<{ sync_status: string }>("SELECT sync_status FROM connections WHERE id = 'unstorable'")
    ).rows[0];
    expect(connection?.sync_status).toBe('synced');
  });

  it('indexes hostile documents correctly and keeps them searchable', async () => {
    const connector = await connectionWith('bad', 0);
    connector.put('empty', '');
    connector.put(
      'huge',
      `# Huge\n\n${'大型文档的段落，包含很多重复的内容。Large paragraph text.\n\n'.repeat(110_000)}`.slice(
        0,
        5_000_000,
      ),
    );
    connector.put('one-line', 'x'.repeat(200_000));
    connector.put('binary', 'PK\u0003\u0004\u0000\u0000\ud800garbage \uFFFD\uFFFD 发票 invoice\u0000');
    connector.put('code-only', '```ts\nconst answer = 42;\n```');
    connector.put('html-title', '# Safe body\n\nBody text about quarterly planning.', {
      title: '<script>alert("x")</script> 计划',
    });
    connector.put('crlf', '\uFEFF# Windows\r\n\r\nLine one\r\nLine two   \r\n');
    const run = await engine.run({ connectionId: 'bad', connector });
    expect(run).toMatchObject({ status: 'succeeded', counters: { added: 7, failed: 0 } });
    await expectIndexMatches('bad', connector);
    const states = await store.listStates('bad');
    expect(states.get('empty')?.chunkCount).toBe(0);
    expect(states.get('html-title')?.title).toBe('<script>alert("x")</script> 计划');

    const search = new HybridSearch({ db, queryEmbedder: () => null });
    const hits = async (query: string) =>
      (await search.search({ query, connectionIds: ['bad'] })).hits.map((h) => h.externalId);
    expect((await hits('发票 invoice'))[0]).toBe('binary');
    expect((await hits('quarterly planning'))[0]).toBe('html-title');
    expect(await hits('answer 42')).toContain('code-only');
    // A 5 MB document (~2,750 chunks) embedded and written for real: over a minute on a loaded machine.
  }, 300_000);

  it('refuses to sync a direct-mode connection', async () => {
    await insertConnection(db, 'live', { mode: 'direct' });
    await expect(
      engine.run({ connectionId: 'live', connector: new MemoryConnector() }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    await expect(
      engine.run({ connectionId: 'nope', connector: new MemoryConnector() }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('holds a Postgres advisory lock per connection while syncing (the guard across app instances)', async () => {
    const lock = new SyncLock(db);
    const advisoryLocks = async () =>
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'"))
        .rows[0]?.n;
    const release = await lock.acquire('gen');
    expect(await advisoryLocks()).toBe(1);
    await expect(lock.acquire('gen')).rejects.toMatchObject({ code: 'ALREADY_SYNCING' });
    const other = await lock.acquire('abort');
    expect(await advisoryLocks()).toBe(2);
    await release();
    await other();
    expect(await advisoryLocks()).toBe(0);
  });

  it('closes runs a crash left open; a connection that never finished a sync is failed with the reason', async () => {
    await insertConnection(db, 'crashed');
    await db.query("UPDATE connections SET sync_status = 'syncing' WHERE id = 'crashed'");
    await db.query("INSERT INTO sync_runs (connection_id, status) VALUES ('crashed', 'running')");
    expect(await closeAbandonedRuns(db)).toBe(1);
    const [run] = await listRuns(db, 'crashed');
    expect(run).toMatchObject({
      status: 'failed',
      error: { code: 'CANCELLED' },
      finishedAt: expect.any(String),
    });
    expect(
      (
        await db.query<{ sync_status: string; sync_error: string }>(
          "SELECT sync_status, sync_error FROM connections WHERE id = 'crashed'",
        )
      ).rows[0],
    ).toEqual({ sync_status: 'failed', sync_error: 'Cairn stopped during this sync.' });
  });

  it('after a crash, a connection gets back the status its last finished run gave it, not idle', async () => {
    await insertConnection(db, 'was-synced');
    await insertConnection(db, 'was-failed');
    await db.query(
      `INSERT INTO sync_runs (connection_id, status, finished_at) VALUES ('was-synced', 'succeeded', now()), ('was-failed', 'failed', now())`,
    );
    await db.query(
      `INSERT INTO sync_runs (connection_id, status) VALUES ('was-synced', 'running'), ('was-failed', 'running')`,
    );
    await db.query(
      "UPDATE connections SET sync_status = 'syncing', last_sync_at = now() WHERE id IN ('was-synced', 'was-failed')",
    );
    expect(await closeAbandonedRuns(db)).toBe(2);
    const statuses = await db.query<{ id: string; sync_status: string; sync_error: string }>(
      "SELECT id, sync_status, sync_error FROM connections WHERE id IN ('was-synced', 'was-failed') ORDER BY id",
    );
    expect(statuses.rows).toEqual([
      { id: 'was-failed', sync_status: 'failed', sync_error: 'Cairn stopped during this sync.' },
      { id: 'was-synced', sync_status: 'synced', sync_error: 'Cairn stopped during this sync.' },
    ]);
  });

  it('stores the page of each chunk of a located document, and search hits carry it', async () => {
    const connector = await connectionWith('paged', 0);
    connector.put('report.pdf', '');
    connector.documents.get('report.pdf')!.parts = [1, 2, 3].map((page) => ({
      markdown: page === 2 ? `## Budget\n\nThe zeppelin hangar budget is set.` : `Page ${page} filler text.`,
      location: { kind: 'page' as const, page },
    }));
    connector.put('plain.md', '# Plain\n\nNo pages here, zeppelin mentioned.');
    await engine.run({ connectionId: 'paged', connector });
    const search = new HybridSearch({ db, queryEmbedder: () => null });
    const hits = (await search.search({ query: 'zeppelin hangar', connectionIds: ['paged'] })).hits;
    // The page that says it ranks first; every hit names its own page, the Markdown file none.
    expect(hits[0]).toMatchObject({ externalId: 'report.pdf', location: { kind: 'page', page: 2 } });
    expect(hits.map((h) => [h.externalId, h.location ?? null])).toEqual(
      expect.arrayContaining([
        ['report.pdf', { kind: 'page', page: 2 }],
        ['plain.md', null],
      ]),
    );
    for (const hit of hits)
      expect(hit.location ?? null).toEqual(
        hit.externalId === 'report.pdf' ? { kind: 'page', page: expect.any(Number) } : null,
      );
  });
});
