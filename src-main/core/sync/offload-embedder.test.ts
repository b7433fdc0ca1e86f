import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { BuiltinEmbedder } from '../embedding/builtin-embedder';
import type { EmbedOptions, EmbedResult } from '../embedding/embedder';
import { keywordInput } from '../index/embedding-input';
import { ensureActiveSpace, spaceTable } from '../index/embedding-spaces';
import { PgDocumentStore } from '../index/pg-document-store';
import { MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { SyncEngine } from './sync-engine';
import { SyncLock } from './sync-lock';

/** The built-in embedder, counting the calls made on this thread. */
class CountedBuiltin extends BuiltinEmbedder {
  calls = 0;
  override async embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult> {
    this.calls += 1;
    return super.embed(texts, options);
  }
}

let db: Db;
const embedder = new CountedBuiltin(64);

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
});
afterAll(async () => {
  await db.close();
});

function corpus(): MemoryConnector {
  const connector = new MemoryConnector();
  for (let i = 0; i < 12; i++)
    connector.put(
      `doc-${i}`,
      i % 2
        ? `# 差旅报销 ${i}\n\n员工提交第${i}号申请，经理审批后财务打款。\n\n## 发票\n\n${'发票抬头写公司全称。'.repeat(i)}`
        : `# Release ${i}\n\nDeploy the canary, watch the alerts, roll back on errors.\n\n## Notes\n\n${'Hotfix notes. '.repeat(i)}`,
    );
  return connector;
}

/** Each chunk's keyword text and vector, by document and ordinal. */
async function indexOf(connectionId: string) {
  const rows = await db.query<{
    key: string;
    search_text: string;
    embedding: string;
    title: string;
    heading_path: string;
    content: string;
  }>(
    `SELECT d.external_id || ':' || c.ord AS key, c.search_text, e.embedding::text AS embedding,
            d.title, c.heading_path, c.content
     FROM chunks c JOIN documents d ON d.id = c.document_id
     JOIN ${spaceTable((await ensureActiveSpace(db, embedder.space)).active)} e ON e.chunk_id = c.id
     WHERE c.connection_id = $1 ORDER BY 1`,
    [connectionId],
  );
  return rows.rows.map(({ title, heading_path, content, ...row }) => {
    // What the embedder handed back is what the store would have analysed itself.
    expect(row.search_text).toBe(keywordInput({ title, headingPath: heading_path, text: content }));
    return row;
  });
}

describe('a sync with its embedder in a worker thread', () => {
  it('writes the same keyword texts and vectors as embedding in this thread, without embedding here', async () => {
    const sync = async (connectionId: string, workerMinDocuments: number) => {
      await insertConnection(db, connectionId);
      const engine = new SyncEngine({
        db,
        store: new PgDocumentStore(db),
        lock: new SyncLock(db),
        workerMinDocuments,
      });
      const run = await engine.run({ connectionId, connector: corpus(), embedder });
      expect(run.status).toBe('succeeded');
      return indexOf(connectionId);
    };
    embedder.calls = 0;
    const inWorker = await sync('worker', 1);
    expect(embedder.calls).toBe(0);
    const here = await sync('here', Number.POSITIVE_INFINITY);
    expect(embedder.calls).toBeGreaterThan(0);
    expect(inWorker).toHaveLength(12);
    expect(inWorker).toEqual(here);
  });
});
