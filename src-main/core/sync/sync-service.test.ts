import { unwrap } from '../../testing/integration-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionView, SyncProgress } from '@shared/models';
import { silentLogger } from '../logging/logger';
import { MemoryConnector } from '../../testing/index-fixtures';
import { createCairn, type CairnInternals } from '../app/create-cairn';

// Every folder connection of this Cairn syncs from `source`, a connector the tests steer.
let source: MemoryConnector;
let cairn: CairnInternals;
let counter = 0;

beforeAll(async () => {
  cairn = await createCairn({
    scheduler: false,
    env: {},
    logger: silentLogger(),
    factories: { folder: () => source },
  });
});

afterAll(async () => {
  await cairn.dispose();
});

beforeEach(() => {
  source = new MemoryConnector();
  for (let i = 0; i < 12; i++)
    source.put(`doc-${i}`, `# Note ${i}\n\nThe quarterly budget review number ${i}.\n`);
});

async function addConnection(): Promise<ConnectionView> {
  counter += 1;
  return unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: `notes ${counter}`,
      mode: 'rag',
      config: { path: `/tmp/notes-${counter}` },
      secrets: {},
    }),
  );
}

async function view(id: string): Promise<ConnectionView | undefined> {
  return unwrap(await cairn.api.connections.list()).find((c) => c.id === id);
}

/** Holds every fetch until `release()`, and says when the first fetch arrived. */
function gateFetches(): { reached: Promise<void>; release: () => void } {
  let release = () => {};
  let reachedNow = () => {};
  const reached = new Promise<void>((resolve) => (reachedNow = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  source.beforeFetch = async () => {
    reachedNow();
    await gate;
  };
  return { reached, release };
}

describe('SyncService as wired by createCairn', () => {
  it('runs exactly one of two syncs started at once', async () => {
    const connection = await addConnection();
    const [a, b] = await Promise.all([
      cairn.api.sync.start({ connectionId: connection.id }),
      cairn.api.sync.start({ connectionId: connection.id }),
    ]);
    await cairn.whenIdle();
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect((a.ok ? b : a).ok === false && (a.ok ? b : a)).toMatchObject({
      error: { code: 'ALREADY_SYNCING' },
    });
    expect(
      unwrap(await cairn.api.sync.runs({ connectionId: connection.id })).map((run) => run.status),
    ).toEqual(['succeeded']);
  });

  it('a cancel that arrives while the sync is still starting stops it', async () => {
    const connection = await addConnection();
    const [started, cancelled] = await Promise.all([
      cairn.api.sync.start({ connectionId: connection.id }),
      cairn.api.sync.cancel({ connectionId: connection.id }),
    ]);
    await cairn.whenIdle();
    expect(cancelled.ok).toBe(true);
    // Either start reports the cancellation, or the run it started ends cancelled: never a full sync.
    const runs = unwrap(await cairn.api.sync.runs({ connectionId: connection.id }));
    expect(started.ok ? runs.map((run) => run.status) : started.error.code).toEqual(
      started.ok ? ['cancelled'] : 'CANCELLED',
    );
    expect(source.fetches).toEqual([]);
    expect(await view(connection.id)).toMatchObject({ syncStatus: 'idle', documentCount: 0 });
  });

  it('removing a connection while its sync is starting stops the sync and leaves nothing behind', async () => {
    const connection = await addConnection();
    const before = unwrap(await cairn.api.settings.reindexCost());
    const [, removed] = await Promise.all([
      cairn.api.sync.start({ connectionId: connection.id }),
      cairn.api.connections.remove({ id: connection.id }),
    ]);
    await cairn.whenIdle();
    expect(removed.ok).toBe(true);
    expect(source.fetches).toEqual([]);
    expect(await view(connection.id)).toBeUndefined();
    expect(unwrap(await cairn.api.settings.reindexCost())).toEqual(before);
  });

  it('removing a connection mid-sync cancels it and deletes its documents, chunks and vectors', async () => {
    const connection = await addConnection();
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await cairn.whenIdle();
    const synced = unwrap(await cairn.api.settings.reindexCost());
    source.put('doc-new', '# New\n\nA fresh note about budgets.\n');
    const gate = gateFetches();
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await gate.reached;
    const removing = cairn.api.connections.remove({ id: connection.id });
    gate.release();
    expect((await removing).ok).toBe(true);
    await cairn.whenIdle();
    const after = unwrap(await cairn.api.settings.reindexCost());
    expect(after).toEqual({ documents: synced.documents - 12, chunks: synced.chunks - 12 });
    const hits = unwrap(await cairn.api.search.query({ query: 'quarterly budget review' })).hits;
    expect(hits.filter((hit) => hit.connectionId === connection.id)).toEqual([]);
  });

  it('switching a syncing connection to direct mode cancels its sync and keeps its index', async () => {
    const connection = await addConnection();
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await cairn.whenIdle();
    source.put('doc-new', '# New\n\nA fresh note about budgets.\n');
    const gate = gateFetches();
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await gate.reached;
    const switching = cairn.api.connections.setMode({ id: connection.id, mode: 'direct' });
    gate.release();
    expect((await switching).ok).toBe(true);
    await cairn.whenIdle();
    const runs = unwrap(await cairn.api.sync.runs({ connectionId: connection.id }));
    expect(runs.map((run) => run.status)).toEqual(['cancelled', 'succeeded']);
    const switched = await view(connection.id);
    expect(switched).toMatchObject({ mode: 'direct', syncStatus: 'synced' });
    // The index keeps its 12 documents. The new one was being fetched when the sync was cancelled:
    // a document already in flight is written whole before the run ends (7cbf9f1), so it may be there too.
    expect([12, 13]).toContain(switched?.documentCount);
    expect(unwrap(await cairn.api.app.status()).syncing[connection.id]).toBeUndefined();
  });

  it('reports progress with documentsDone never going back and documentsTotal the listed count', async () => {
    const connection = await addConnection();
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await cairn.whenIdle();
    for (let i = 0; i < 3; i++) source.put(`doc-${i}`, `# Note ${i}\n\nChanged text ${i}.\n`);
    source.documents.delete('doc-11');
    const progress: SyncProgress[] = [];
    const off = cairn.events.on('sync.progress', (event) => {
      if (event.connectionId === connection.id) progress.push(event);
    });
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await cairn.whenIdle();
    off();
    const done = progress.map((event) => event.documentsDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ phase: 'done', documentsDone: 11, documentsTotal: 11 });
    expect(
      progress.filter((event) => event.phase !== 'listing').every((event) => event.documentsTotal === 11),
    ).toBe(true);
  });

  it('a cancelled run does not report every document as done', async () => {
    const connection = await addConnection();
    const gate = gateFetches();
    const progress: SyncProgress[] = [];
    const off = cairn.events.on('sync.progress', (event) => {
      if (event.connectionId === connection.id) progress.push(event);
    });
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await gate.reached;
    const cancelling = cairn.api.sync.cancel({ connectionId: connection.id });
    gate.release();
    await cancelling;
    await cairn.whenIdle();
    off();
    const last = progress.at(-1);
    expect(last?.phase).toBe('done');
    expect(last!.documentsDone).toBeLessThan(last!.documentsTotal);
    expect(unwrap(await cairn.api.sync.runs({ connectionId: connection.id }))[0]?.status).toBe('cancelled');
  });
});
