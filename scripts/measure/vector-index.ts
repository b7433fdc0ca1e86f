/**
 * Measures the vector channel's options in PGlite + pgvector: exact scan vs HNSW, `vector` vs
 * `halfvec`, bulk HNSW build vs incremental inserts. Vectors are clustered synthetic unit vectors
 * (a centre per "topic" plus noise), closer to real embeddings than uniform noise.
 * Run: npx tsx scripts/measure/vector-index.ts [chunks=20000] [dims=1024] [vector|halfvec|both] [clustered|uniform]
 * Results feed docs/decisions/vector-index.md.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { toVectorLiteral } from '../../src-main/core/index/vector-literal';

const N = Number(process.argv[2] ?? 20000);
const D = Number(process.argv[3] ?? 1024);
const TYPES = (process.argv[4] ?? 'both') === 'both' ? ['vector', 'halfvec'] : [process.argv[4] ?? 'vector'];
const UNIFORM = process.argv[5] === 'uniform';
const QUERIES = 50;

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(42);
function gaussian(): number {
  return Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}
function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / n;
  return v;
}
const centres = Array.from({ length: 200 }, () => normalise(Float32Array.from({ length: D }, gaussian)));
function sample(): Float32Array {
  if (UNIFORM) return normalise(Float32Array.from({ length: D }, gaussian));
  const c = centres[Math.floor(rand() * centres.length)]!;
  return normalise(Float32Array.from(c, (x) => x + gaussian() * 0.04));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function insertAll(
  db: PGlite,
  table: string,
  cast: string,
  vectors: Float32Array[],
  startId = 1,
): Promise<number> {
  const t0 = performance.now();
  const batch = 100;
  for (let i = 0; i < vectors.length; i += batch) {
    const rows = vectors.slice(i, i + batch);
    const values = rows.map((_v, j) => `($${2 * j + 1}::bigint, $${2 * j + 2}::${cast})`).join(',');
    await db.query(
      `INSERT INTO ${table} (id, embedding) VALUES ${values}`,
      rows.flatMap((v, j) => [startId + i + j, toVectorLiteral(v)]),
    );
  }
  return performance.now() - t0;
}

async function topK(
  db: PGlite,
  table: string,
  cast: string,
  q: Float32Array,
): Promise<{ ids: number[]; ms: number }> {
  const t0 = performance.now();
  const r = await db.query<{ id: number }>(
    `SELECT id FROM ${table} ORDER BY embedding <=> $1::${cast} LIMIT 30`,
    [toVectorLiteral(q)],
  );
  return { ids: r.rows.map((x) => Number(x.id)), ms: performance.now() - t0 };
}

async function main(): Promise<void> {
  const db = await PGlite.create({ extensions: { vector } });
  await db.exec('CREATE EXTENSION vector');
  const vectors = Array.from({ length: N }, sample);
  const queries = Array.from({ length: QUERIES }, sample);
  const out: Record<string, number | string> = {
    chunks: N,
    dims: D,
    distribution: UNIFORM ? 'uniform' : 'clustered',
  };

  for (const type of TYPES) {
    const cast = type;
    const table = `e_${type}`;
    await db.exec(`CREATE TABLE ${table} (id bigint PRIMARY KEY, embedding ${type}(${D}) NOT NULL)`);
    out[`${type}.bulk_insert_ms`] = Math.round(await insertAll(db, table, cast, vectors));
    await db.exec(`ANALYZE ${table}`);
    const exact: number[][] = [];
    const exactMs: number[] = [];
    for (const q of queries) {
      const r = await topK(db, table, cast, q);
      exact.push(r.ids);
      exactMs.push(r.ms);
    }
    out[`${type}.exact_p50_ms`] = median(exactMs).toFixed(1);
    const size = await db.query<{ s: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('${table}')) AS s`,
    );
    out[`${type}.table_size`] = size.rows[0]!.s;

    const t0 = performance.now();
    await db.exec(`SET maintenance_work_mem = '512MB'`);
    await db.exec(`CREATE INDEX ${table}_hnsw ON ${table} USING hnsw (embedding ${type}_cosine_ops)`);
    out[`${type}.hnsw_build_ms`] = Math.round(performance.now() - t0);
    const annMs: number[] = [];
    let recall = 0;
    for (const [i, q] of queries.entries()) {
      const r = await topK(db, table, cast, q);
      annMs.push(r.ms);
      const truth = new Set(exact[i]!.slice(0, 10));
      recall += r.ids.slice(0, 10).filter((id) => truth.has(id)).length / 10;
    }
    out[`${type}.hnsw_p50_ms`] = median(annMs).toFixed(1);
    out[`${type}.hnsw_recall@10`] = (recall / QUERIES).toFixed(3);
    const idx = await db.query<{ s: string }>(
      `SELECT pg_size_pretty(pg_relation_size('${table}_hnsw')) AS s`,
    );
    out[`${type}.hnsw_size`] = idx.rows[0]!.s;

    // Filtered query (a quarter of the rows match), the shape of a connection filter.
    await db.exec(`SET hnsw.iterative_scan = relaxed_order`);
    const filteredMs: number[] = [];
    let filteredRecall = 0;
    for (const q of queries.slice(0, 20)) {
      const lit = toVectorLiteral(q);
      const t = performance.now();
      const ann = await db.query<{ id: number }>(
        `WITH n AS MATERIALIZED (SELECT id, embedding <=> $1::${cast} AS d FROM ${table} WHERE id % 4 = 0 ORDER BY d LIMIT 30) SELECT id FROM n ORDER BY d`,
        [lit],
      );
      filteredMs.push(performance.now() - t);
      await db.exec('SET enable_indexscan = off');
      const truth = await db.query<{ id: number }>(
        `SELECT id FROM ${table} WHERE id % 4 = 0 ORDER BY embedding <=> $1::${cast} LIMIT 10`,
        [lit],
      );
      await db.exec('RESET enable_indexscan');
      const t10 = new Set(truth.rows.map((r) => Number(r.id)));
      filteredRecall += ann.rows.slice(0, 10).filter((r) => t10.has(Number(r.id))).length / 10;
    }
    out[`${type}.hnsw_filtered_p50_ms`] = median(filteredMs).toFixed(1);
    out[`${type}.hnsw_filtered_recall@10`] = (filteredRecall / 20).toFixed(3);
    await db.exec(`RESET hnsw.iterative_scan`);

    // Incremental inserts into a table that already has the HNSW index, one row per statement.
    const extra = Array.from({ length: 100 }, sample);
    const t1 = performance.now();
    for (const [i, v] of extra.entries()) {
      await db.query(`INSERT INTO ${table} (id, embedding) VALUES ($1, $2::${cast})`, [
        N + 1 + i,
        toVectorLiteral(v),
      ]);
    }
    out[`${type}.hnsw_insert_each_ms`] = ((performance.now() - t1) / extra.length).toFixed(1);
    const t2 = performance.now();
    await insertAll(db, `${table}`, cast, Array.from({ length: 100 }, sample), N + 1000);
    out[`${type}.hnsw_batched_insert_each_ms`] = ((performance.now() - t2) / 100).toFixed(1);
    await db.exec(`DROP TABLE ${table}`);
    console.log(JSON.stringify(out));
  }
  await db.close();
}

await main();
