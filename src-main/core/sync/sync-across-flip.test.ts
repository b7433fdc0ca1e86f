import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import type { Embedder } from '../embedding/embedder';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../embedding/fake-embedding-server';
import { OpenAiCompatibleEmbedder } from '../embedding/openai-embedder';
import { ensureActiveSpace, readSpaces, spaceTable } from '../index/embedding-spaces';
import { PgDocumentStore } from '../index/pg-document-store';
import { runReindex } from '../spaces/reindex-job';
import { CountingEmbedder, MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { SyncEngine } from './sync-engine';
import { SyncLock } from './sync-lock';

let db: Db;
let server: FakeEmbeddingServer;
const oldModel = new CountingEmbedder({ model: 'old', dimensions: 64 });

beforeAll(async () => {
  server = await startFakeEmbeddingServer();
  db = await openDatabase();
  await ensureActiveSpace(db, oldModel.space);
});
afterAll(async () => {
  await db.close();
  await server.close();
});

function connectorWith(count: number): MemoryConnector {
  const connector = new MemoryConnector();
  for (let i = 0; i < count; i++)
    connector.put(
      `doc-${i}`,
      i % 2
        ? `# Note ${i}\n\nGardening tip ${i}: water the tomatoes.`
        : `# 笔记 ${i}\n\n第${i}条：报销需要发票。`,
    );
  return connector;
}

describe('a sync running across a re-embed flip', () => {
  it('writes the documents after the flip into the new active space; nothing is lost and every chunk has a vector there', async () => {
    await insertConnection(db, 'flip');
    const newModel = new OpenAiCompatibleEmbedder({
      provider: 'custom',
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
      model: 'text-embedding-v3',
      dimensions: 256,
      maxBatchSize: 10,
      sendDimensions: true,
      sendTextType: false,
    });
    const { active: oldSpace } = await readSpaces(db);
    // As the app does (EmbeddingService.currentSyncEmbedder): the active space as the database has it now.
    const currentEmbedder = async (): Promise<Embedder> =>
      (await readSpaces(db)).active?.model === newModel.space.model ? newModel : oldModel;
    const connector = connectorWith(60);
    // Half-way through the sync a re-embed into the remote model runs to its end and flips.
    let reindexed = false;
    connector.beforeFetch = async () => {
      if (reindexed || connector.fetches.length < 20) return;
      reindexed = true;
      await runReindex({ db, embedder: newModel });
    };
    const engine = new SyncEngine({
      db,
      store: new PgDocumentStore(db),
      lock: new SyncLock(db),
      fetchConcurrency: 4,
    });
    const run = await engine.run({ connectionId: 'flip', connector, embedder: oldModel, currentEmbedder });

    expect(run.errors).toEqual([]);
    expect(run).toMatchObject({ status: 'succeeded', counters: { added: 60, failed: 0 } });
    const { active, pending } = await readSpaces(db);
    expect([active?.model, pending]).toEqual(['text-embedding-v3', null]);
    const tables = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_tables WHERE tablename = $1',
      [spaceTable(oldSpace!)],
    );
    expect(tables.rows[0]?.n).toBe(0);
    const coverage = await db.query<{ chunks: number; vectors: number; documents: number }>(
      `SELECT count(DISTINCT c.id)::int AS chunks, count(e.chunk_id)::int AS vectors, count(DISTINCT c.document_id)::int AS documents
       FROM chunks c LEFT JOIN ${spaceTable(active!)} e ON e.chunk_id = c.id WHERE c.connection_id = 'flip'`,
    );
    expect(coverage.rows[0]).toEqual({ chunks: 60, vectors: 60, documents: 60 });
    // The documents written after the flip were embedded by the remote model, not copied from the old space.
    expect(server.stats.inputs).toBeGreaterThanOrEqual(60);
  });
});
