import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReindexStatus } from '@shared/models';
import { openDatabase, type Db } from '../db/database';
import { DatabaseHealth } from '../db/database-health';
import { DATABASE_RESERVE_BYTES, DiskSpace } from '../db/disk-space';
import type { EmbedResult, Embedder, EmbeddingSpace } from '../embedding/embedder';
import type { EmbeddingSettings } from '../embedding/create-embedder';
import { EventBus } from '../events/event-bus';
import { ensureActiveSpace, readSpaces, spaceTable } from '../index/embedding-spaces';
import { DocumentReader } from '../index/document-reader';
import { silentLogger } from '../logging/logger';
import { HybridSearch } from '../search/hybrid-search';
import { MemorySecretStore } from '../secrets/secret-store';
import { SyncEngine } from '../sync/sync-engine';
import { SyncLock } from '../sync/sync-lock';
import { PgDocumentStore } from '../index/pg-document-store';
import {
  CountingEmbedder,
  MemoryConnector,
  insertConnection,
  writeMarkdownDocument,
} from '../../testing/index-fixtures';
import { EmbeddingService } from './embedding-service';
import {
  missingChunks,
  queuedDocuments,
  SemanticIndexBuilder,
  storeVectors,
  type FillProgress,
} from './semantic-index';
import { SpaceSettingsStore } from './space-settings';

let db: Db;

beforeEach(async () => {
  db = await openDatabase();
  await insertConnection(db, 'notes');
});
afterEach(async () => {
  await db.close();
});

/** A document per line of `titles`, each one chunk, modified upstream on the given day of 2026. */
async function writeNotes(titles: string[]): Promise<void> {
  for (const [i, title] of titles.entries())
    await writeMarkdownDocument(db, null, {
      connectionId: 'notes',
      externalId: `n${i}`,
      title,
      markdown: `# ${title}\n\nGarden notes ${i}: water the tomatoes in the morning.`,
      remoteUpdatedAt: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
    });
}

async function vectorCount(space: { id: number }): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(space)}`);
  return rows.rows[0]?.n ?? 0;
}

async function chunkCount(): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM chunks')).rows[0]?.n ?? 0;
}

/** Runs `hook` before the embedder's n-th call (n from 1). */
class HookedEmbedder implements Embedder {
  calls = 0;
  constructor(
    readonly inner: CountingEmbedder,
    private readonly hook: (call: number) => Promise<void> | void,
  ) {}
  get space(): EmbeddingSpace {
    return this.inner.space;
  }
  async embed(
    texts: string[],
    options?: { kind?: 'document' | 'query'; signal?: AbortSignal },
  ): Promise<EmbedResult> {
    this.calls += 1;
    await this.hook(this.calls);
    return this.inner.embed(texts, options);
  }
}

function serviceFor(
  models: CountingEmbedder[],
  chosen: () => EmbeddingSettings,
  options: { build?: boolean; events?: EventBus } = {},
): EmbeddingService {
  const byModel = (settings: EmbeddingSettings) =>
    models.find((m) => m.space.model === settings.model) ?? null;
  return new EmbeddingService({
    db,
    events: options.events ?? new EventBus(),
    logger: silentLogger(),
    configuredEmbedder: async () => ({ embedder: byModel(chosen()), settings: chosen() }),
    spaceSettings: new SpaceSettingsStore(db, new MemorySecretStore(), () => {}, byModel),
    build: options.build ?? true,
    builder: { batchChunks: 4, retryDelaysMs: [5] },
  });
}

const custom = (model: string): EmbeddingSettings => ({
  provider: 'custom',
  baseUrl: '',
  model,
  dimensions: 64,
});

describe('the semantic index', () => {
  it('searches a partly covered space by meaning where vectors exist and by keyword elsewhere, and says how much is covered', async () => {
    await writeNotes(['Tomatoes', 'Basil', 'Peppers', 'Lettuce', 'Carrots', 'Onions']);
    const embedder = new CountingEmbedder({ model: 'garden' });
    const { active } = await ensureActiveSpace(db, embedder.space);
    // Three of six documents get their vectors, as if the builder were half way.
    const first = (await queuedDocuments(db, 3)).slice(0, 3);
    const chunks = await missingChunks(db, active, first, 100);
    await storeVectors(db, active, chunks, (await embedder.embed(chunks.map((c) => c.text))).vectors, first);

    const service = serviceFor([embedder], () => custom('garden'), { build: false });
    await service.start();
    const search = new HybridSearch({
      db,
      queryEmbedder: (space) => service.forSpace(space),
      semanticCoverage: () => service.coverage(),
    });
    const found = await search.search({ query: 'water the tomatoes garden notes', k: 10 });
    expect(found.semantic).toEqual({ space: 'test/garden/64', covered: 3, total: 6 });
    const covered = new Set(chunks.map((c) => c.documentId));
    const byVector = found.documents.filter((d) => d.best.ranks.vector !== undefined);
    const keywordOnly = found.documents.filter((d) => d.best.ranks.vector === undefined);
    expect(byVector.length).toBeGreaterThan(0);
    expect(byVector.every((d) => covered.has(d.best.documentId!))).toBe(true);
    expect(keywordOnly.some((d) => !covered.has(d.best.documentId!))).toBe(true);
    expect(found.documents).toHaveLength(6);
    await service.dispose();
  });

  it('embeds recently opened and modified documents first, and after a stop resumes without embedding a chunk twice', async () => {
    await writeNotes(Array.from({ length: 12 }, (_, i) => `Note ${i}`));
    const opened = (await db.query<{ id: number }>("SELECT id FROM documents WHERE external_id = 'n0'"))
      .rows[0]!.id;
    await new DocumentReader(db).markOpened(Number(opened));
    const inner = new CountingEmbedder({ model: 'garden' });
    const { active } = await ensureActiveSpace(db, inner.space);
    let stopping: Promise<void> | null = null;
    const builder = new SemanticIndexBuilder({
      db,
      logger: silentLogger(),
      onProgress: () => {},
      batchChunks: 4,
    });
    const embedder = new HookedEmbedder(inner, (call) => {
      if (call === 2) stopping = builder.stop();
    });
    await builder.start(active, embedder);
    await builder.whenIdle();
    await stopping;
    // The first batch: the opened document, then the most recently modified ones.
    expect(inner.inputs.slice(0, 4).map((text) => text.split('\n')[0])).toEqual([
      'Note 0',
      'Note 11',
      'Note 10',
      'Note 9',
    ]);
    const afterStop = await vectorCount(active);
    expect(afterStop).toBe(4);

    await builder.start(active, embedder);
    await builder.whenIdle();
    await builder.stop();
    expect(await vectorCount(active)).toBe(await chunkCount());
    // The batch in flight at the stop was abandoned before the model answered: nothing twice.
    expect(new Set(inner.inputs).size).toBe(inner.inputs.length);
    expect(inner.inputs).toHaveLength(await chunkCount());
    expect((await db.query('SELECT 1 FROM embedding_queue')).rows).toHaveLength(0);
  });

  it("fills a new model's space while the old one serves, catches up what a sync writes meanwhile, then switches", async () => {
    await writeNotes(['Tomatoes', 'Basil', 'Peppers', 'Lettuce', 'Carrots']);
    const old = new CountingEmbedder({ model: 'old' });
    const next = new CountingEmbedder({ model: 'new', dimensions: 32 });
    let chosen = custom('old');
    const events = new EventBus();
    const service = serviceFor([old, next], () => chosen, { events });
    await service.start();
    await service.whenIdle();
    const oldSpace = (await readSpaces(db)).active!;
    expect(await vectorCount(oldSpace)).toBe(5);

    const statuses: ReindexStatus[] = [];
    events.on('reindex.progress', (status) => statuses.push(status));
    await insertConnection(db, 'inbox');
    const connector = new MemoryConnector();
    connector.put('late', '# Late note\n\nWritten while the new space fills: compost recipe.');
    const engine = new SyncEngine({ db, store: new PgDocumentStore(db), lock: new SyncLock(db) });
    // A sync of another connection runs while the new model embeds its first batch.
    const hooked = next.embed.bind(next);
    let synced = false;
    next.embed = async (texts, options) => {
      if (!synced) {
        synced = true;
        expect(service.forSpace(old.space)).toBe(old);
        expect((await readSpaces(db)).active?.model).toBe('old');
        await engine.run({ connectionId: 'inbox', connector });
        events.emit('sync.finished', null as never);
      }
      return hooked(texts, options);
    };
    chosen = { ...custom('new'), dimensions: 32 };
    await service.reconfigure();
    await service.whenIdle();

    const spaces = await readSpaces(db);
    expect([spaces.active?.model, spaces.pending]).toEqual(['new', null]);
    expect(await vectorCount(spaces.active!)).toBe(await chunkCount());
    expect(next.inputs.some((text) => text.includes('compost'))).toBe(true);
    const exists = await db.query('SELECT 1 FROM pg_tables WHERE tablename = $1', [spaceTable(oldSpace)]);
    expect(exists.rows).toHaveLength(0);
    expect(statuses.some((s) => s.pendingSpace === 'test/new/32')).toBe(true);
    expect(service.status()).toMatchObject({
      activeSpace: 'test/new/32',
      pendingSpace: null,
      done: 6,
      total: 6,
    });
    await service.dispose();
  });

  it('lets a document the model refuses wait while the others are embedded, and counts it', async () => {
    await writeNotes(['Tomatoes', 'Basil', 'Peppers POISON', 'Lettuce', 'Carrots', 'Onions']);
    const embedder = new CountingEmbedder({ model: 'garden' });
    embedder.failOn = 'POISON';
    const service = serviceFor([embedder], () => custom('garden'));
    await service.start();
    await service.whenIdle();
    const { active } = await readSpaces(db);
    expect(await vectorCount(active!)).toBe(5);
    const waiting = await db.query<{ attempts: number; external_id: string }>(
      'SELECT q.attempts, d.external_id FROM embedding_queue q JOIN documents d ON d.id = q.document_id',
    );
    expect(waiting.rows).toEqual([{ attempts: 1, external_id: 'n2' }]);
    expect(service.status()).toMatchObject({ failedDocuments: 1, done: 5, total: 6 });
    await service.dispose();
  });

  it('waits without asking the model or blaming a document while the disk has no room for the vectors, then builds', async () => {
    await writeNotes(['Tomatoes', 'Basil', 'Peppers']);
    const embedder = new CountingEmbedder({ model: 'garden' });
    const { active } = await ensureActiveSpace(db, embedder.space);
    // The volume as statfs reports it: the database's reserve and 1 KB more, then plenty.
    let freeBytes = DATABASE_RESERVE_BYTES + 1024;
    const space = new DiskSpace(process.cwd(), () => ({ bavail: freeBytes, bsize: 1 }));
    const seen: FillProgress[] = [];
    let waiter: { until: (p: FillProgress) => boolean; resolve: () => void } | null = null;
    const reached = (until: (p: FillProgress) => boolean) =>
      new Promise<void>((resolve) => {
        if (seen.some(until)) resolve();
        else waiter = { until, resolve };
      });
    const builder = new SemanticIndexBuilder({
      db,
      logger: silentLogger(),
      onProgress: (progress) => {
        seen.push(progress);
        if (waiter?.until(progress)) waiter.resolve();
      },
      batchChunks: 4,
      retryDelaysMs: [5],
      health: new DatabaseHealth(space),
    });
    await builder.start(active, embedder);
    await reached((p) => p.error?.startsWith('Disk full') === true);
    expect(seen.find((p) => p.error)?.error).toMatch(
      /^Disk full: \d+ MB free on .+ \(this needs about \d+ MB\); the vectors wait until there is room; keyword search goes on\.$/,
    );
    expect(embedder.calls).toBe(0);
    expect(await vectorCount(active)).toBe(0);
    // Nobody's fault: no document has an attempt counted against it.
    const attempts = await db.query<{ attempts: number }>('SELECT attempts FROM embedding_queue');
    expect(attempts.rows.map((r) => r.attempts)).toEqual([0, 0, 0]);

    freeBytes = 10 * 1024 ** 3;
    seen.length = 0;
    await reached((p) => p.done === 3 && p.total === 3 && p.error === null);
    expect(await vectorCount(active)).toBe(await chunkCount());
    await builder.stop();
  });

  it('pauses and resumes, and remembers the pause across a restart', async () => {
    await writeNotes(['Tomatoes', 'Basil']);
    const embedder = new CountingEmbedder({ model: 'garden' });
    const service = serviceFor([embedder], () => custom('garden'));
    await service.start();
    await service.setPaused(true);
    await service.dispose();
    const before = embedder.calls;
    const restarted = serviceFor([embedder], () => custom('garden'));
    await restarted.start();
    await restarted.whenIdle();
    expect(restarted.status()).toMatchObject({ paused: true, running: false });
    expect(embedder.calls).toBe(before);
    await restarted.setPaused(false);
    await restarted.whenIdle();
    expect(restarted.status()).toMatchObject({ paused: false, done: 2, total: 2 });
    await restarted.dispose();
  });
});

describe('keyword search only', () => {
  it('drops the vectors in a process that builds, and leaves them in a one-shot one', async () => {
    await writeNotes(['Tomatoes', 'Basil']);
    const embedder = new CountingEmbedder({ model: 'garden' });
    const built = serviceFor([embedder], () => custom('garden'));
    await built.start();
    await built.whenIdle();
    await built.dispose();
    const { active } = await readSpaces(db);
    expect(await vectorCount(active!)).toBe(2);
    const none = () => ({ provider: 'builtin' as const, baseUrl: '', model: '', dimensions: 1024 });

    // A one-shot command (a search, a status) run without the model the vectors were built with.
    const oneShot = serviceFor([embedder], none, { build: false });
    await oneShot.start();
    expect(oneShot.status()).toMatchObject({ activeSpace: '', pendingSpace: null });
    expect(oneShot.forSpace(active!)).toBeNull();
    await oneShot.dispose();
    expect((await readSpaces(db)).active?.id).toBe(active!.id);
    expect(await vectorCount(active!)).toBe(2);

    // The app (or `cairn serve`, `cairn sync`) with the model turned off.
    const app = serviceFor([embedder], none);
    await app.start();
    await app.dispose();
    expect((await readSpaces(db)).active).toBeNull();
    const tables = await db.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'embeddings_%'");
    expect(tables.rows).toEqual([]);
  });

  it('writes no vectors and builds no vector index, and searches by keyword', async () => {
    const service = serviceFor([], () => ({ provider: 'builtin', baseUrl: '', model: '', dimensions: 1024 }));
    await service.start();
    const engine = new SyncEngine({ db, store: new PgDocumentStore(db), lock: new SyncLock(db) });
    const connector = new MemoryConnector();
    connector.put('a', '# 差旅报销\n\n报销需要发票和审批。');
    connector.put('b', '# Release notes\n\nDeploy the canary first.');
    expect((await engine.run({ connectionId: 'notes', connector })).status).toBe('succeeded');
    await service.whenIdle();
    const tables = await db.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'embeddings_%'");
    expect(tables.rows).toEqual([]);
    expect((await db.query('SELECT 1 FROM embedding_queue')).rows).toEqual([]);
    expect(service.status()).toMatchObject({ activeSpace: '', pendingSpace: null, running: false });
    const search = new HybridSearch({
      db,
      queryEmbedder: (space) => service.forSpace(space),
      semanticCoverage: () => service.coverage(),
    });
    const found = await search.search({ query: '报销 发票' });
    expect(found.documents.map((d) => d.best.externalId)).toEqual(['a']);
    expect(found.semantic).toBeUndefined();
    await service.dispose();
  });

  it('drops the vectors an older version wrote with the built-in lexical embedder, re-indexing nothing and losing nothing searchable', async () => {
    await writeNotes(['Tomatoes', 'Basil', 'Peppers']);
    // What a data directory from before looks like: a 'builtin' space holding a vector per chunk.
    const lexical = new CountingEmbedder({ model: 'cairn-hash-v1', dimensions: 16 });
    const lexicalSpace = { provider: 'builtin', model: 'cairn-hash-v1', dimensions: 16 };
    const { active } = await ensureActiveSpace(db, lexicalSpace);
    const chunks = await missingChunks(db, active, await queuedDocuments(db, 100), 100);
    await storeVectors(
      db,
      active,
      chunks,
      (await lexical.embed(chunks.map((c) => c.text))).vectors,
      chunks.map((c) => c.documentId),
    );
    const before = await db.query('SELECT id, search_text FROM chunks ORDER BY id');

    const service = serviceFor([], () => ({ provider: 'builtin', baseUrl: '', model: '', dimensions: 1024 }));
    await service.start();
    expect(
      (await db.query('SELECT 1 FROM pg_tables WHERE tablename = $1', [spaceTable(active)])).rows,
    ).toEqual([]);
    expect(await readSpaces(db)).toEqual({ active: null, pending: null });
    expect((await db.query('SELECT id, search_text FROM chunks ORDER BY id')).rows).toEqual(before.rows);
    const search = new HybridSearch({ db, queryEmbedder: () => null });
    expect((await search.search({ query: 'Peppers' })).documents.map((d) => d.best.title)).toEqual([
      'Peppers',
    ]);
    await service.dispose();
  });
});
