/**
 * Where one hybrid search's time goes (issue #15): `npx tsx scripts/measure/search-cost.ts <dataDir>`
 * on an index kept by `npm run bench -- --only builtin-10k --keep --work-dir <dir>` (dataDir =
 * <dir>/builtin-10k). Runs the bench's 200 generated queries through the app's HybridSearch with
 * every statement timed (grouped by its first words), and reports per search: statements, time
 * inside PGlite, and the rest (JS: query analysis, embedding, fusion, assembly). Medians of
 * per-search sums of CPU time (process.cpuUsage: PGlite runs in this thread, and CPU time is steadier
 * than wall time on a shared machine); `--rounds n` repeats the query list.
 */
import { openDatabase } from '../../src-main/core/db/database';
import { BuiltinEmbedder } from '../../src-main/core/embedding/builtin-embedder';
import { generateQueries } from '../../bench/corpus';
import { hybridSearchFor } from '../../bench/pipeline';

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
let current: Map<string, number> | null = null;
let counts: Map<string, number> | null = null;
const original = {
  query: db.query.bind(db),
  exec: db.exec.bind(db),
};
function label(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (s.includes('<@>') && s.includes('LIMIT')) return 'bm25 scan';
  if (s.includes('LIKE ANY')) return 'matched check (LIKE)';
  if (s.includes('<=>')) return 'vector channel';
  if (s.startsWith('SELECT id, platform, mode FROM connections')) return 'connections';
  if (s.includes('index_meta')) return 'spaces';
  if (s.includes('JOIN documents d ON d.id = c.document_id')) return 'row fetch';
  if (s.startsWith('SELECT search_text FROM chunks')) return 'anyOccurs search_text';
  return s.slice(0, 50);
}
function wrap<T extends (...args: never[]) => Promise<unknown>>(fn: T): T {
  return (async (...args: Parameters<T>) => {
    const started = cpuMs();
    try {
      return await fn(...args);
    } finally {
      const ms = cpuMs() - started;
      if (current && counts) {
        const key = label(String(args[0]));
        current.set(key, (current.get(key) ?? 0) + ms);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }) as T;
}
db.query = wrap(original.query) as typeof db.query;
db.exec = wrap(original.exec) as typeof db.exec;

for (const query of generateQueries(10, 2)) await search.search({ query });
const perSearch: { total: number; parts: Map<string, number>; counts: Map<string, number> }[] = [];
for (let r = 0; r < rounds; r++)
  for (const query of generateQueries(200, 1)) {
    current = new Map();
    counts = new Map();
    const started = cpuMs();
    await search.search({ query, k: 10 });
    perSearch.push({ total: cpuMs() - started, parts: current, counts });
    current = null;
  }
await db.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const keys = [...new Set(perSearch.flatMap((s) => [...s.parts.keys()]))];
console.log(
  `searches ${perSearch.length}; total p50 ${median(perSearch.map((s) => s.total)).toFixed(2)} ms, mean ${mean(perSearch.map((s) => s.total)).toFixed(2)} ms`,
);
const sql = perSearch.map((s) => [...s.parts.values()].reduce((a, b) => a + b, 0));
console.log(
  `inside PGlite: p50 ${median(sql).toFixed(2)} ms, mean ${mean(sql).toFixed(2)}; rest (JS) p50 ${median(perSearch.map((s, i) => s.total - sql[i]!)).toFixed(2)} ms`,
);
console.log(
  `statements per search: mean ${mean(perSearch.map((s) => [...s.counts.values()].reduce((a, b) => a + b, 0))).toFixed(2)}`,
);
for (const key of keys) {
  const times = perSearch.map((s) => s.parts.get(key) ?? 0);
  const n = perSearch.map((s) => s.counts.get(key) ?? 0);
  console.log(
    `  ${key.padEnd(32)} mean ${mean(times).toFixed(2)} ms/search  p50 ${median(times).toFixed(2)}  calls/search ${mean(n).toFixed(2)}`,
  );
}
