/**
 * The LanceDB peer step in a bench worker process (`bench-worker.ts lancedb --data-dir D
 * --lance-dir L --out F`): imported lazily so a missing native module only affects it.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

export async function runLanceDbStep(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'data-dir': { type: 'string' },
      'lance-dir': { type: 'string' },
      out: { type: 'string' },
      queries: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
    },
  });
  const { 'data-dir': cairnDataDir, 'lance-dir': lanceDir, out } = values;
  if (!cairnDataDir || !lanceDir || !out)
    throw new Error('usage: bench-worker lancedb --data-dir D --lance-dir L --out F');
  // Lance logs per-partition k-means warnings at WARN on small tables; the report states the size.
  process.env.LANCEDB_LOG ??= 'error';
  // With ≤ 2 CPUs Lance's blocking pool has one thread and its FTS builder deadlocks once the
  // postings fill a second batch (lancedb/lancedb#3568; hung here at 100k chunks with 0% CPU).
  process.env.LANCE_CPU_THREADS ??= String(Math.max(4, availableParallelism()));
  const { runLanceDbScenario } = await import('./lancedb-scenario');
  const result = await runLanceDbScenario({
    cairnDataDir,
    lanceDir,
    queries: Number(values.queries),
    seed: Number(values.seed),
  });
  writeFileSync(out, JSON.stringify(result, null, 2));
}
