/**
 * Rough sync speed of the engine + store in the default configuration (keyword index, no vectors):
 * full index of N generated documents, then a re-sync with nothing changed (revisions equal).
 * Run: npx tsx scripts/measure/sync-speed.ts [documents=2000]
 * The real harness is `npm run bench` (issue 3); this checks the engine's design early.
 */
import { openDatabase } from '../../src-main/core/db/database';
import { PgDocumentStore } from '../../src-main/core/index/pg-document-store';
import { SyncEngine } from '../../src-main/core/sync/sync-engine';
import { SyncLock } from '../../src-main/core/sync/sync-lock';
import { MemoryConnector, insertConnection } from '../../src-main/testing/index-fixtures';

const N = Number(process.argv[2] ?? 2000);

function paragraph(i: number, j: number): string {
  return i % 2 === 0
    ? `第${i}篇文档的第${j}段介绍了报销、差旅、采购和审批流程中的常见问题，以及财务部门给出的处理建议。`.repeat(
        6,
      )
    : `Paragraph ${j} of document ${i} covers deployment, monitoring and the on-call rota in some detail. `.repeat(
        6,
      );
}

async function main(): Promise<void> {
  const db = await openDatabase();
  await insertConnection(db, 'bench');
  const connector = new MemoryConnector();
  for (let i = 0; i < N; i++)
    connector.put(
      `d${i}`,
      `# Doc ${i}\n\n## Part A\n\n${paragraph(i, 1)}\n\n${paragraph(i, 2)}\n\n## Part B\n\n${paragraph(i, 3)}`,
    );
  const engine = new SyncEngine({ db, store: new PgDocumentStore(db), lock: new SyncLock(db) });
  let started = performance.now();
  const full = await engine.run({ connectionId: 'bench', connector });
  const fullMs = performance.now() - started;
  started = performance.now();
  const again = await engine.run({ connectionId: 'bench', connector });
  const againMs = performance.now() - started;
  console.log(
    JSON.stringify({
      documents: N,
      chunks: full.counters.chunksWritten,
      fullStatus: full.status,
      fullMs: Math.round(fullMs),
      chunksPerSecond: Math.round(full.counters.chunksWritten / (fullMs / 1000)),
      unchangedResyncMs: Math.round(againMs),
      unchanged: again.counters.unchanged,
      rssMB: Math.round(process.memoryUsage().rss / 1e6),
      timings: (await db.query<{ timings: unknown }>('SELECT timings FROM sync_runs ORDER BY id')).rows.map(
        (r) => r.timings,
      ),
    }),
  );
  await db.close();
}

await main();
