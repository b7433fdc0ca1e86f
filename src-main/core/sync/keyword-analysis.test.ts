import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../chunking/chunker';
import { openDatabase, type Db } from '../db/database';
import { embeddingInput, keywordInput } from '../index/embedding-input';
import { toSearchText } from '../text/analyzer';
import { PgDocumentStore } from '../index/pg-document-store';
import { silentLogger } from '../logging/logger';
import { MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { analyzeDocument, analyzerForSync, inThreadAnalyzer, type KeywordAnalyzer } from './keyword-analysis';
import { SyncEngine } from './sync-engine';
import { SyncLock } from './sync-lock';

let db: Db;

beforeAll(async () => {
  db = await openDatabase();
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

/** Each chunk's keyword text, by document and ordinal, checked against what the store would write itself. */
async function keywordTextsOf(connectionId: string): Promise<{ key: string; search_text: string }[]> {
  const rows = await db.query<{
    key: string;
    search_text: string;
    title: string;
    heading_path: string;
    content: string;
  }>(
    `SELECT d.external_id || ':' || c.ord AS key, c.search_text, d.title, c.heading_path, c.content
     FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.connection_id = $1 ORDER BY 1`,
    [connectionId],
  );
  return rows.rows.map(({ key, search_text, title, heading_path, content }) => {
    expect(search_text).toBe(keywordInput({ title, headingPath: heading_path, text: content }));
    return { key, search_text };
  });
}

describe('keyword analysis in a sync', () => {
  it('writes the same keyword texts whether a worker thread or this one analyses them', async () => {
    const sync = async (connectionId: string, workerMinDocuments: number) => {
      await insertConnection(db, connectionId);
      const engine = new SyncEngine({
        db,
        store: new PgDocumentStore(db),
        lock: new SyncLock(db),
        workerMinDocuments,
      });
      // A cancellable run, as the sync service starts it: 12 documents in flight at once.
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      const run = await engine
        .run({ connectionId, connector: corpus(), signal: new AbortController().signal })
        .finally(() => process.off('warning', onWarning));
      expect(run.status).toBe('succeeded');
      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
      return keywordTextsOf(connectionId);
    };
    const inWorker = await sync('worker', 1);
    const here = await sync('here', Number.POSITIVE_INFINITY);
    expect(inWorker.length).toBeGreaterThanOrEqual(12);
    expect(inWorker).toEqual(here);
  });

  it('starts a worker only for a large sync, and it analyses off this thread', async () => {
    const small = await analyzerForSync(3, { minDocuments: 10, logger: silentLogger() });
    expect(small.analyzer).toBe(inThreadAnalyzer);
    await small.dispose();
    const large = await analyzerForSync(10, { minDocuments: 10, logger: silentLogger() });
    try {
      expect(large.analyzer).not.toBe(inThreadAnalyzer);
      expect(await large.analyzer.analyze(['Deploying canaries', '差旅报销'])).toEqual(
        await inThreadAnalyzer.analyze(['Deploying canaries', '差旅报销']),
      );
    } finally {
      await large.dispose();
    }
  });

  it('analyses a document past the size where memory matters more than a second analysis only as it is written', async () => {
    const counted: KeywordAnalyzer & { texts: number } = {
      texts: 0,
      async analyze(texts) {
        this.texts += texts.length;
        return inThreadAnalyzer.analyze(texts);
      },
    };
    const chunks = chunkMarkdown(
      `# Big\n\n${Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${`Text of part ${i}. `.repeat(30)}`).join('\n\n')}`,
    );
    expect(chunks.length).toBeGreaterThan(3);
    expect(await analyzeDocument(counted, 'Big', chunks, undefined, 3)).toBeUndefined();
    expect(counted.texts).toBe(0);
    const texts = await analyzeDocument(counted, 'Big', chunks);
    expect(texts).toHaveLength(chunks.length);
    expect(texts![1]).toBe(
      toSearchText(
        embeddingInput({ title: 'Big', headingPath: chunks[1]!.headingPath, text: chunks[1]!.text }),
      ),
    );
  });
});
