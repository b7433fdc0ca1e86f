/**
 * `npx tsx bench/ann-sweep.ts <data-dir> <vectors-file> [ef,ef,…]`: on an index kept by
 * `npm run bench -- --only <id> --keep`, the vector channel's recall@10 against the exact
 * reference and its latency for several hnsw.ef_search values, plus what the misses look like.
 * A diagnostic for tuning the vector index, not part of the default benchmark.
 */
import { openDatabase } from '../src-main/core/db/database';
import { BuiltinEmbedder } from '../src-main/core/embedding/builtin-embedder';
import { readSpaces } from '../src-main/core/index/embedding-spaces';
import { CHANNEL_DEPTH, keywordSearch, vectorChannel } from '../src-main/core/search/index-channels';
import { prepareQuery } from '../src-main/core/search/query-text';
import { vectorTuning } from '../src-main/core/search/search-tuning';
import { generateQueries } from './corpus';
import { recallAgainstExact } from './exact-search';
import { mean, median } from './metrics';
import { loadExactIndex } from './query-scenario';

const [dataDir, vectorFile, efList = '40,80,200,400,1000'] = process.argv.slice(2);
if (!dataDir || !vectorFile) throw new Error('usage: ann-sweep <data-dir> <vectors-file> [ef,ef,…]');
const db = await openDatabase({ dataDir });
const { active } = await readSpaces(db);
if (!active) throw new Error('No active space.');
const embedder = new BuiltinEmbedder(active.dimensions);
const exact = await loadExactIndex(db, vectorFile, active.dimensions);
const prepared = generateQueries(200, 1).map((q) => prepareQuery(q)!);
const queries = prepared.map((p) => p.text);
const vectors = (await embedder.embed(queries, { kind: 'query' })).vectors;
const truth = vectors.map((v) => exact.topK(v, CHANNEL_DEPTH));
await db.exec('SET hnsw.iterative_scan = relaxed_order');
console.log(
  `${exact.size} vectors; exact 10th-best cosine: median ${median(truth.map((t) => t[9]?.score ?? 0)).toFixed(3)}, best: median ${median(truth.map((t) => t[0]?.score ?? 0)).toFixed(3)}`,
);
for (const ef of efList.split(',').map(Number)) {
  await db.exec(`SET hnsw.ef_search = ${ef}`);
  const times: number[] = [];
  const recalls: number[] = [];
  for (const [q, vector] of vectors.entries()) {
    const started = performance.now();
    const { candidates } = await keywordSearch(
      db,
      prepared[q]!.keywordText,
      null,
      vectorTuning(active).lexicalCandidates,
    );
    const ids = await vectorChannel(db, active, vector, null, { candidates });
    times.push(performance.now() - started);
    recalls.push(recallAgainstExact(ids, truth[q]!, 10, (id) => exact.scoreOf(id, vector)));
  }
  const zero = recalls.filter((r) => r === 0).length;
  console.log(
    `ef_search ${String(ef).padStart(4)}: recall@10 ${mean(recalls).toFixed(3)} (${zero} queries at 0), vector channel p50 ${median(times).toFixed(1)} ms`,
  );
}
const worst = recalls0(vectors, truth);
console.log(worst);
await db.close();

function recalls0(_v: Float32Array[], t: ReturnType<typeof exact.topK>[]): string {
  const sample = t.slice(0, 5).map(
    (top, i) =>
      `${queries[i]}: exact top-3 ${top
        .slice(0, 3)
        .map((s) => s.score.toFixed(3))
        .join(', ')}`,
  );
  return sample.join('\n');
}
