import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { CairnError } from '../errors';
import { ConnectionRepository, newConnectionId } from './connection-repository';

let db: Db;
let repo: ConnectionRepository;

beforeAll(async () => {
  db = await openDatabase();
  repo = new ConnectionRepository(db, {
    secretFieldsOf: async (ref) => (ref.startsWith('connection:') ? ['appSecret'] : []),
    limitationOf: (platform) =>
      platform === 'dingtalk'
        ? { code: 'dingtalk.no-stream', message: 'full text unavailable: direct search only' }
        : null,
    directOnlyOf: (platform) => platform === 'dingtalk',
  });
});

afterAll(async () => {
  await db.close();
});

async function errorOf(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof CairnError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a CairnError');
}

async function addDocument(connectionId: string, externalId: string, chunks: number): Promise<void> {
  const doc = await db.query<{ id: number }>(
    "INSERT INTO documents (connection_id, external_id, title, content_hash, content, chunk_count) VALUES ($1, $2, $2, 'h', 'c', $3) RETURNING id",
    [connectionId, externalId, chunks],
  );
  for (let ord = 0; ord < chunks; ord++) {
    await db.query(
      "INSERT INTO chunks (document_id, connection_id, ord, content, char_start, char_end) VALUES ($1, $2, $3, 'x', 0, 1)",
      [doc.rows[0]?.id, connectionId, ord],
    );
  }
}

describe('ConnectionRepository', () => {
  it('creates connections with readable unique ids and returns complete views with counts', async () => {
    const notes = await repo.create({
      platform: 'folder',
      name: '  My   Notes ',
      mode: 'rag',
      config: { path: '/n' },
      hasSecrets: false,
    });
    const ding = await repo.create({
      platform: 'dingtalk',
      name: '钉钉知识库',
      mode: 'direct',
      config: { appKey: 'k' },
      hasSecrets: true,
    });
    expect(notes.id).toMatch(/^my-notes-[0-9a-f]{6}$/);
    expect(ding.id).toMatch(/^dingtalk-[0-9a-f]{6}$/);
    await addDocument(notes.id, 'a.md', 2);
    await addDocument(notes.id, 'b.md', 3);
    expect(await repo.list()).toEqual([
      {
        id: notes.id,
        platform: 'folder',
        name: 'My Notes',
        mode: 'rag',
        config: { path: '/n' },
        secretFields: [],
        syncStatus: 'idle',
        syncError: null,
        syncErrorCode: null,
        lastSyncAt: null,
        nextSyncAt: null,
        documentCount: 2,
        chunkCount: 5,
        deferred: 0,
        skippedKinds: {},
        directOnly: false,
        limitation: null,
        limitationCode: null,
        experimental: false,
      },
      {
        ...ding,
        documentCount: 0,
        chunkCount: 0,
        secretFields: ['appSecret'],
        limitation: 'full text unavailable: direct search only',
        limitationCode: 'dingtalk.no-stream',
      },
    ]);
    expect(ding.directOnly).toBe(true);
    expect(await repo.secretRef(ding.id)).toBe(`connection:${ding.id}`);
    expect((await repo.list({ mode: 'direct' })).map((c) => c.id)).toEqual([ding.id]);
  });

  it('rejects duplicate, empty and over-long names', async () => {
    const taken = await repo.create({
      platform: 'yuque',
      name: 'Team Wiki',
      mode: 'rag',
      config: {},
      hasSecrets: true,
    });
    expect(
      await errorOf(
        repo.create({ platform: 'yuque', name: 'Team Wiki', mode: 'rag', config: {}, hasSecrets: true }),
      ),
    ).toEqual({
      code: 'ALREADY_EXISTS',
      message: 'A connection named "Team Wiki" already exists.',
    });
    expect(
      (
        await errorOf(
          repo.create({ platform: 'yuque', name: '  ', mode: 'rag', config: {}, hasSecrets: false }),
        )
      ).message,
    ).toBe('A connection needs a name.');
    expect(
      (
        await errorOf(
          repo.create({
            platform: 'yuque',
            name: 'x'.repeat(81),
            mode: 'rag',
            config: {},
            hasSecrets: false,
          }),
        )
      ).code,
    ).toBe('INVALID_ARGUMENT');
    const other = await repo.create({
      platform: 'yuque',
      name: 'Other',
      mode: 'rag',
      config: {},
      hasSecrets: false,
    });
    expect((await errorOf(repo.rename(other.id, 'Team Wiki'))).code).toBe('ALREADY_EXISTS');
    expect((await repo.rename(other.id, 'Renamed')).name).toBe('Renamed');
    await repo.remove(taken.id);
    await repo.remove(other.id);
  });

  it('records sync state, switches mode (dropping the schedule outside RAG) and lists schedules', async () => {
    const view = await repo.create({
      platform: 'folder',
      name: 'Sched',
      mode: 'rag',
      config: { path: '/s' },
      hasSecrets: false,
    });
    const last = new Date('2025-01-02T03:04:05.000Z');
    const next = new Date('2025-01-03T03:04:05.000Z');
    await repo.updateSyncState(view.id, {
      syncStatus: 'failed',
      syncError: '2 documents failed',
      syncErrorCode: 'DOCUMENT_FAILED',
      lastSyncAt: last,
      nextSyncAt: next,
    });
    expect(await repo.get(view.id)).toMatchObject({
      syncStatus: 'failed',
      syncError: '2 documents failed',
      syncErrorCode: 'DOCUMENT_FAILED',
      lastSyncAt: last.toISOString(),
      nextSyncAt: next.toISOString(),
    });
    await repo.updateSyncState(view.id, { syncError: null, syncErrorCode: null });
    expect(await repo.get(view.id)).toMatchObject({ syncError: null, syncErrorCode: null });
    expect((await repo.syncSchedules()).find((s) => s.id === view.id)).toEqual({
      id: view.id,
      lastSyncAt: last,
      nextSyncAt: next,
    });
    expect(await repo.setMode(view.id, 'direct')).toMatchObject({ mode: 'direct', nextSyncAt: null });
    expect((await repo.syncSchedules()).some((s) => s.id === view.id)).toBe(false);
    expect((await errorOf(repo.setMode('missing', 'rag'))).code).toBe('NOT_FOUND');
    expect((await errorOf(repo.updateSyncState('missing', { syncStatus: 'idle' }))).code).toBe('NOT_FOUND');
    await repo.remove(view.id);
  });

  it('removes a connection with its documents, chunks and runs, returning its secret ref', async () => {
    const view = await repo.create({
      platform: 'feishu',
      name: 'Gone',
      mode: 'rag',
      config: {},
      hasSecrets: true,
    });
    await addDocument(view.id, 'doc', 4);
    await db.query("INSERT INTO sync_runs (connection_id, status) VALUES ($1, 'succeeded')", [view.id]);
    expect(await repo.remove(view.id)).toEqual({ secretRef: `connection:${view.id}` });
    const left = await db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM documents WHERE connection_id = $1) + (SELECT count(*) FROM chunks WHERE connection_id = $1) + (SELECT count(*) FROM sync_runs WHERE connection_id = $1) AS n',
      [view.id],
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect((await errorOf(repo.remove(view.id))).code).toBe('NOT_FOUND');
  });

  it('makes slugs from Latin names, folding accents', () => {
    expect(newConnectionId('Café Notes — 2025!', 'folder')).toMatch(/^cafe-notes-2025-[0-9a-f]{6}$/);
    expect(newConnectionId('语雀', 'yuque')).toMatch(/^yuque-[0-9a-f]{6}$/);
  });
});
