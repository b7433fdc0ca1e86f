/**
 * Where one hybrid search's time goes (issue #15): `npx tsx scripts/measure/search-cost.ts <dataDir>`
 * on an index kept by `npm run bench -- --only builtin-10k --keep --work-dir <dir>` (dataDir =
 * <dir>/builtin-10k). Runs the bench's 200 generated queries through the app's HybridSearch with
 * every statement timed (grouped by what it is in the app's path: bench/statement-trace.ts), and
 * reports per search: statements, time inside PGlite, and the rest (JS: query analysis, embedding,
 * fusion, assembly). Medians of per-search sums of CPU time (process.cpuUsage: PGlite runs in this
 * thread, and CPU time is steadier than wall time on a shared machine); `--rounds n` repeats the
 * query list.
 */
import { openDatabase } from '../../src-main/core/db/database';
import { BuiltinEmbedder } from '../../src-main/core/embedding/builtin-embedder';
import { generateQueries } from '../../bench/corpus';
import { hybridSearchFor } from '../../bench/pipeline';
import {
  STATEMENT_KINDS,
  StatementTrace,
  type StatementKind,
  type StatementTimes,
} from '../../bench/statement-trace';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: search-cost.ts <dataDir> [--rounds n]');
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 1;

const db = await openDatabase({ dataDir });
const search = hybridSearchFor(db, new BuiltinEmbedder());

/** CPU time of this process (PGlite runs in this thread): steadier than wall time on a loaded machine. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
// The statements of the app's path, grouped by kind (bench/statement-trace.ts).
const trace = new StatementTrace(db, cpuMs);

for (const query of generateQueries(10, 2)) await search.search({ query });
const perSearch: { total: number; statements: StatementTimes }[] = [];
for (let r = 0; r < rounds; r++)
  for (const query of generateQueries(200, 1)) {
    const started = cpuMs();
    const { statements } = await trace.measure(() => search.search({ query, k: 10 }));
    perSearch.push({ total: cpuMs() - started, statements });
  }
trace.restore();
await db.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const sum = (record: Record<StatementKind, number>) =>
  STATEMENT_KINDS.reduce((total, kind) => total + record[kind], 0);
console.log(
  `searches ${perSearch.length}; total p50 ${median(perSearch.map((s) => s.total)).toFixed(2)} ms, mean ${mean(perSearch.map((s) => s.total)).toFixed(2)} ms`,
);
const sql = perSearch.map((s) => sum(s.statements.ms));
console.log(
  `inside PGlite: p50 ${median(sql).toFixed(2)} ms, mean ${mean(sql).toFixed(2)}; rest (JS) p50 ${median(perSearch.map((s, i) => s.total - sql[i]!)).toFixed(2)} ms`,
);
console.log(`statements per search: mean ${mean(perSearch.map((s) => sum(s.statements.count))).toFixed(2)}`);
for (const kind of STATEMENT_KINDS) {
  const times = perSearch.map((s) => s.statements.ms[kind]);
  const n = perSearch.map((s) => s.statements.count[kind]);
  console.log(
    `  ${kind.padEnd(32)} mean ${mean(times).toFixed(2)} ms/search  p50 ${median(times).toFixed(2)}  calls/search ${mean(n).toFixed(2)}`,
  );
}
