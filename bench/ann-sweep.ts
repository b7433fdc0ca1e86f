/**
 * `npx tsx bench/ann-sweep.ts <data-dir> <vectors-file> [--ef 200,400,800] [--iterative relaxed_order,strict_order]
 *   [--hnsw-top 30,100] [--lexical 300,0] [--max-scan-tuples n] [--build 16:64,32:128]
 *   [--maintenance-work-mem 512MB] [--queries 200] [--out f.json]`:
 * on an index kept by `npm run bench -- --only <id> --keep`, the vector channel's recall@10 against
 * the exact reference and its latency (p50/p95, the channel alone, as the bench times it) for every
 * combination of hnsw.ef_search, hnsw.iterative_scan, the HNSW hits re-scored exactly, and the BM25
 * candidates beside them (0 = the walk alone, what semantic spaces get). `--build m:ef_construction`
 * drops and rebuilds the HNSW index with those parameters first (timed) and runs the grid on each
 * build in turn: it rewrites the kept index. A diagnostic for tuning the vector index
 * (docs/decisions/vector-index.md), not part of the default benchmark.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src-main/core/db/database';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { annIndexName } from '../src-main/core/index/ann-index';
import { readSpaces, spaceTable, vectorType } from '../src-main/core/index/embedding-spaces';
import { CHANNEL_DEPTH } from '../src-main/core/search/channel-scope';
import { keywordScan } from '../src-main/core/search/keyword-scan';
import { prepareQuery } from '../src-main/core/search/query-text';
import { generateQueries } from './corpus';
import { vectorChannel } from './vector-channel-study';
import { recallAgainstExact } from './exact-search';
import { mean, percentile } from './metrics';
import { loadExactIndex } from './query-scenario';
import { machineFacts } from './process-stats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    ef: { type: 'string', default: '200,400,800' },
    iterative: { type: 'string', default: 'relaxed_order' },
    'hnsw-top': { type: 'string', default: '30,100' },
    lexical: { type: 'string', default: '300' },
    'max-scan-tuples': { type: 'string' },
    build: { type: 'string' },
    /** maintenance_work_mem for --build (the app's is 512MB): a smaller one makes the graph spill. */
    'maintenance-work-mem': { type: 'string', default: '512MB' },
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
    /** BM25 depths at which to report how many of the exact top 10 the BM25 list holds. */
    reach: { type: 'string' },
  },
});
const [dataDir, vectorFile] = positionals;
if (!dataDir || !vectorFile)
  throw new Error('usage: ann-sweep <data-dir> <vectors-file> [--ef …] (see the file comment)');
const list = (value: string | undefined) => (value ?? '').split(',').filter((v) => v.length > 0);
const numbers = (value: string | undefined) => list(value).map(Number);

const db = await openDatabase({ dataDir });
const { active } = await readSpaces(db);
if (!active) throw new Error('No active space.');
const embedder = new BuiltinEmbedder(active.dimensions);
const exact = await loadExactIndex(db, vectorFile, active.dimensions);
const prepared = generateQueries(Number(values.queries), Number(values.seed)).map((q) => prepareQuery(q)!);
const vectors = (
  await embedder.embed(
    prepared.map((p) => p.text),
    { kind: 'query' },
  )
).vectors;
const truth = vectors.map((v) => exact.topK(v, CHANNEL_DEPTH));
// The BM25 lists once per depth: the keyword scan is not what is being tuned.
const lexicalLists = new Map<number, number[][]>();
for (const depth of numbers(values.lexical)) {
  const lists: number[][] = [];
  for (const p of prepared)
    lists.push(depth > 0 ? (await keywordScan(db, p.keywordText, null, depth)).candidates : []);
  lexicalLists.set(depth, lists);
}
const log = (line: string) => console.log(line);
log(
  `${exact.size} vectors, ${prepared.length} queries; load ${machineFacts().loadAverage.join(' / ')}; pgvector ${await extensionVersion()}`,
);

// How deep in BM25 the exact neighbours lie: whether more lexical candidates could close the gap.
const reach = numbers(values.reach);
if (reach.length > 0) {
  const deepest = Math.max(...reach);
  const found = reach.map(() => 0);
  let total = 0;
  for (const [q, p] of prepared.entries()) {
    const ranks = new Map(
      (await keywordScan(db, p.keywordText, null, deepest)).candidates.map((id, rank) => [id, rank]),
    );
    for (const { id } of truth[q]!.slice(0, 10)) {
      total++;
      const rank = ranks.get(id) ?? Number.POSITIVE_INFINITY;
      reach.forEach((depth, i) => (found[i]! += rank < depth ? 1 : 0));
    }
  }
  log(
    `exact top-10 chunks within the BM25 top n: ${reach.map((depth, i) => `${depth}: ${(found[i]! / total).toFixed(3)}`).join(', ')}`,
  );
}

interface Point {
  build: string;
  buildS: number | null;
  efSearch: number;
  iterativeScan: string;
  hnswTop: number;
  lexical: number;
  recallAt10: number;
  zeroRecallQueries: number;
  p50Ms: number;
  p95Ms: number;
}
const points: Point[] = [];
const builds = values.build ? list(values.build) : ['as built'];
for (const build of builds) {
  let buildS: number | null = null;
  if (build !== 'as built') {
    const [m, efConstruction] = build.split(':').map(Number);
    await db.exec(`DROP INDEX IF EXISTS ${annIndexName(active)}`);
    const memory = values['maintenance-work-mem'];
    if (!/^\d+[kMG]B$/.test(memory)) throw new Error(`--maintenance-work-mem ${memory}: e.g. 512MB`);
    await db.exec(`SET maintenance_work_mem = '${memory}'`);
    const started = performance.now();
    await db.exec(
      `CREATE INDEX ${annIndexName(active)} ON ${spaceTable(active)} USING hnsw (embedding ${vectorType(active)}_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`,
    );
    buildS = (performance.now() - started) / 1000;
    await db.exec('RESET maintenance_work_mem');
    log(
      `built HNSW m ${m}, ef_construction ${efConstruction} (maintenance_work_mem ${memory}) in ${buildS.toFixed(1)} s`,
    );
  }
  log(
    '| build | ef_search | iterative_scan | HNSW top | BM25 candidates | recall@10 | queries at 0 | p50 ms | p95 ms |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  for (const iterative of list(values.iterative)) {
    await db.exec(`SET hnsw.iterative_scan = ${iterative}`);
    if (values['max-scan-tuples'])
      await db.exec(`SET hnsw.max_scan_tuples = ${Number(values['max-scan-tuples'])}`);
    for (const ef of numbers(values.ef)) {
      await db.exec(`SET hnsw.ef_search = ${ef}`);
      for (const hnswTop of numbers(values['hnsw-top']))
        for (const lexical of numbers(values.lexical)) {
          const candidates = lexicalLists.get(lexical)!;
          const run = (q: number) =>
            vectorChannel(db, active, vectors[q]!, null, {
              candidates: candidates[q]!,
              hnswCandidates: hnswTop,
            });
          for (let q = 0; q < 10; q++) await run(q);
          const times: number[] = [];
          const recalls: number[] = [];
          for (let q = 0; q < vectors.length; q++) {
            const started = performance.now();
            const ids = await run(q);
            times.push(performance.now() - started);
            recalls.push(recallAgainstExact(ids, truth[q]!, 10, (id) => exact.scoreOf(id, vectors[q]!)));
          }
          const point: Point = {
            build,
            buildS,
            efSearch: ef,
            iterativeScan: iterative,
            hnswTop,
            lexical,
            recallAt10: mean(recalls),
            zeroRecallQueries: recalls.filter((r) => r === 0).length,
            p50Ms: percentile(times, 50),
            p95Ms: percentile(times, 95),
          };
          points.push(point);
          log(
            `| ${build} | ${ef} | ${iterative} | ${hnswTop} | ${lexical} | ${point.recallAt10.toFixed(3)} | ${point.zeroRecallQueries} | ${point.p50Ms.toFixed(1)} | ${point.p95Ms.toFixed(1)} |`,
          );
        }
    }
  }
}
log(`load at the end ${machineFacts().loadAverage.join(' / ')}`);
if (values.out) writeFileSync(values.out, JSON.stringify({ dataDir, vectors: exact.size, points }, null, 2));
await db.close();

async function extensionVersion(): Promise<string> {
  const rows = await db.query<{ extversion: string }>(
    `SELECT extversion FROM pg_extension WHERE extname = 'vector'`,
  );
  return rows.rows[0]?.extversion ?? 'unknown';
}
