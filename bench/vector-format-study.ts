/**
 * `npx tsx bench/vector-format-study.ts --docs <file> --queries <file> --count 10000
 * [--dimensions 512|1024] [--mean-cosine 0.75|none] [--variants a,b,…] [--work-dir <dir>]`:
 * how to store and index a semantic space's vectors in PGlite (issue #26 item 3). Every variant
 * stores the same vectors in its own table of an on-disk PGlite and answers the same queries the
 * way the app's vector channel does (candidates, then every candidate re-scored exactly, top 30);
 * recall@10 is against the exact float32 ranking computed here in JavaScript. Reported per variant:
 * recall@10, query p50/p95 (wall, this process), load time (the rows' INSERTs, CPU), index build
 * time (CPU), disk per vector (table with TOAST + index), and the cost of inserting 500 more rows
 * through the built index (what the background semantic index pays per vector).
 *
 * Vectors: bench/model-vectors.ts files (a random-weight transformer over real text). Such outputs
 * share one dominant direction (every pair at cosine ~0.999), so they are centred on their mean and
 * then given back a common component so that two random texts sit at --mean-cosine (default 0.75:
 * multilingual-e5's model card says its scores "distribute around 0.7 to 1.0"; 'none' keeps them
 * centred). --dimensions 1024 maps them through one fixed Gaussian matrix (the width of the default
 * API models).
 */
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { vectorArrayParam, type VectorType } from '../src-main/core/index/vector-binary';
import { toVectorLiteral } from '../src-main/core/index/vector-literal';
import { seededRandom } from '../src-main/testing/seeded-random';
import { machineFacts } from './process-stats';
import { normalise, shapeVectors } from './vector-shape';
import { currentCommit, markdownTable, num } from './report';

const TOP = 10;
const DEPTH = 30;

interface Variant {
  id: string;
  type: VectorType;
  /** Column storage: pgvector's default (EXTERNAL: out of line when the row is over ~2 kB) or PLAIN (inline). */
  storage: 'default' | 'plain';
  index: 'none' | 'hnsw' | 'hnsw-bit';
  /** HNSW ef_search, or the binary index's candidates re-scored. */
  depth: number;
}

const VARIANTS: Variant[] = [
  { id: 'vector-exact', type: 'vector', storage: 'default', index: 'none', depth: 0 },
  { id: 'halfvec-exact', type: 'halfvec', storage: 'default', index: 'none', depth: 0 },
  { id: 'halfvec-plain-exact', type: 'halfvec', storage: 'plain', index: 'none', depth: 0 },
  { id: 'vector-hnsw', type: 'vector', storage: 'default', index: 'hnsw', depth: 200 },
  { id: 'halfvec-hnsw', type: 'halfvec', storage: 'default', index: 'hnsw', depth: 200 },
  { id: 'halfvec-plain-hnsw', type: 'halfvec', storage: 'plain', index: 'hnsw', depth: 200 },
  { id: 'halfvec-bit-200', type: 'halfvec', storage: 'plain', index: 'hnsw-bit', depth: 200 },
  { id: 'halfvec-bit-400', type: 'halfvec', storage: 'plain', index: 'hnsw-bit', depth: 400 },
];

function readVectors(path: string, limit: number): { vectors: Float32Array[]; dimensions: number } {
  const bytes = readFileSync(path);
  const header = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 12));
  const [count, queries, dimensions] = [header[0]!, header[1]!, header[2]!];
  const floats = new Float32Array(
    bytes.buffer.slice(
      bytes.byteOffset + 12,
      bytes.byteOffset + bytes.byteLength - ((bytes.byteLength - 12) % (4 * dimensions)),
    ),
  );
  const available = Math.min(floats.length / dimensions, count + queries);
  const take = Math.min(limit, available);
  return {
    vectors: Array.from({ length: take }, (_, i) => floats.subarray(i * dimensions, (i + 1) * dimensions)),
    dimensions,
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Shaped (vector-shape.ts), then, for another width, mapped through one fixed Gaussian matrix. */
function calibrate(
  docs: Float32Array[],
  queries: Float32Array[],
  meanCosine: number | null,
  dimensions: number,
): { docs: Float32Array[]; queries: Float32Array[] } {
  const width = docs[0]!.length;
  const shaped = shapeVectors(docs, queries, meanCosine, width);
  const random = seededRandom(1024);
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const projection =
    dimensions === width
      ? null
      : Array.from({ length: dimensions }, () => Float32Array.from({ length: width }, gaussian));
  const project = (v: Float32Array) =>
    projection ? normalise(Float32Array.from(projection, (row) => dot(row, v))) : v;
  return { docs: shaped.documents.map(project), queries: shaped.queries.map(project) };
}

function exactTop(docs: Float32Array[], query: Float32Array, k: number): number[] {
  const best: { id: number; score: number }[] = [];
  for (let id = 0; id < docs.length; id++) {
    const score = dot(docs[id]!, query);
    if (best.length < k || score > best[best.length - 1]!.score) {
      best.push({ id, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.id);
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      docs: { type: 'string' },
      queries: { type: 'string' },
      count: { type: 'string', default: '10000' },
      dimensions: { type: 'string' },
      'mean-cosine': { type: 'string', default: '0.75' },
      variants: { type: 'string' },
      'work-dir': { type: 'string', default: join(tmpdir(), 'cairn-vector-format') },
      'insert-extra': { type: 'string', default: '500' },
    },
  });
  if (!values.docs || !values.queries) throw new Error('usage: --docs <file> --queries <file> [--count N]');
  const count = Number(values.count);
  const extra = Number(values['insert-extra']);
  const read = readVectors(values.docs, count + extra);
  if (read.vectors.length < count + extra)
    throw new Error(`${values.docs} holds ${read.vectors.length} vectors; ${count + extra} needed.`);
  const queryFile = readVectors(values.queries, 10_000);
  const dimensions = Number(values.dimensions ?? read.dimensions);
  const meanCosine = values['mean-cosine'] === 'none' ? null : Number(values['mean-cosine']);
  const shaped = calibrate(read.vectors, queryFile.vectors, meanCosine, dimensions);
  const docs = shaped.docs.slice(0, count);
  const later = shaped.docs.slice(count, count + extra);
  const queries = shaped.queries;
  const random = seededRandom(7);
  const pairs = Array.from({ length: 2000 }, () =>
    dot(docs[Math.floor(random() * docs.length)]!, docs[Math.floor(random() * docs.length)]!),
  );
  const exact = queries.map((q) => exactTop(docs, q, TOP));
  const topScores = queries.map((q, i) => dot(q, docs[exact[i]![0]!]!));
  const variants = values.variants
    ? VARIANTS.filter((v) => values.variants!.split(',').includes(v.id))
    : VARIANTS;
  const machine = machineFacts();
  console.log(
    `vector format study: ${count} vectors (${read.dimensions} → ${dimensions} dims), ${queries.length} queries; mean cosine of random pairs ${num(percentile(pairs, 50), 3)} (p5 ${num(percentile(pairs, 5), 3)}, p95 ${num(percentile(pairs, 95), 3)}), query top-1 cosine p50 ${num(percentile(topScores, 50), 3)}; commit ${currentCommit() ?? '?'}, load ${machine.loadAverage.join(' / ')}`,
  );
  const dir = join(values['work-dir'], `${count}-${dimensions}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
  const rows: (string | number)[][] = [];
  try {
    for (const variant of variants) {
      const table = `v_${variant.id.replace(/-/g, '_')}`;
      const cast = `${variant.type}(${dimensions})`;
      await db.exec(
        `DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (chunk_id bigint PRIMARY KEY, embedding ${cast} NOT NULL)`,
      );
      if (variant.storage === 'plain')
        await db.exec(`ALTER TABLE ${table} ALTER COLUMN embedding SET STORAGE PLAIN`);
      const insert = async (vectors: Float32Array[], first: number) => {
        for (let start = 0; start < vectors.length; start += 200) {
          const slice = vectors.slice(start, start + 200);
          const param = await vectorArrayParam(db, variant.type, dimensions, slice);
          await db.query(
            `INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::${cast}[])`,
            [slice.map((_, i) => first + start + i), param.value],
            param.options,
          );
        }
      };
      let started = cpu();
      await insert(docs, 0);
      const loadMs = cpu() - started;
      const bitCast = `bit(${dimensions})`;
      const indexSql =
        variant.index === 'hnsw'
          ? `CREATE INDEX ${table}_ann ON ${table} USING hnsw (embedding ${variant.type}_cosine_ops)`
          : variant.index === 'hnsw-bit'
            ? `CREATE INDEX ${table}_ann ON ${table} USING hnsw ((binary_quantize(embedding)::${bitCast}) bit_hamming_ops)`
            : null;
      let buildMs = 0;
      if (indexSql) {
        await db.exec(`SET maintenance_work_mem = '512MB'`);
        started = cpu();
        await db.exec(indexSql);
        buildMs = cpu() - started;
        await db.exec('RESET maintenance_work_mem');
      }
      await db.exec(`VACUUM ANALYZE ${table}`);
      const size = (
        await db.query<{ table: number; index: number }>(
          `SELECT pg_table_size('${table}')::bigint AS table, coalesce((SELECT pg_relation_size(indexrelid) FROM pg_index WHERE indrelid = '${table}'::regclass AND indexrelid::regclass::text = '${table}_ann'), 0)::bigint AS index`,
        )
      ).rows[0]!;
      if (variant.index === 'hnsw') await db.exec(`SET hnsw.ef_search = ${variant.depth}`);
      if (variant.index === 'hnsw-bit') await db.exec(`SET hnsw.ef_search = ${variant.depth}`);
      const candidates =
        variant.index === 'none'
          ? `SELECT chunk_id FROM ${table} ORDER BY embedding <=> $1::${cast} LIMIT ${DEPTH}`
          : variant.index === 'hnsw'
            ? `SELECT chunk_id FROM ${table} ORDER BY embedding <=> $1::${cast} LIMIT ${DEPTH}`
            : `SELECT chunk_id FROM ${table} ORDER BY binary_quantize(embedding)::${bitCast} <~> binary_quantize($1::${cast})::${bitCast} LIMIT ${variant.depth}`;
      // The app's shape: candidates by primary key, each re-scored exactly, the top DEPTH.
      const sql = `SELECT chunk_id FROM ${table} WHERE chunk_id = ANY (ARRAY(${candidates}))
                   ORDER BY embedding <=> $1::${cast}, chunk_id LIMIT ${DEPTH}`;
      if (variant.index === 'none') await db.exec('SET enable_indexscan = off');
      const latencies: number[] = [];
      let recall = 0;
      for (const [i, query] of queries.entries()) {
        const literal = toVectorLiteral(query);
        const t = performance.now();
        const found = (await db.query<{ chunk_id: string | number }>(sql, [literal])).rows.map((r) =>
          Number(r.chunk_id),
        );
        latencies.push(performance.now() - t);
        const truth = new Set(exact[i]);
        recall += found.slice(0, TOP).filter((id) => truth.has(id)).length / TOP;
      }
      await db.exec('RESET enable_indexscan');
      started = cpu();
      await insert(later, count);
      const insertMsPerRow = (cpu() - started) / later.length;
      await db.exec(`DELETE FROM ${table} WHERE chunk_id >= ${count}`);
      const perVector = (Number(size.table) + Number(size.index)) / count;
      rows.push([
        variant.id,
        num(recall / queries.length, 3),
        num(percentile(latencies, 50), 1),
        num(percentile(latencies, 95), 1),
        num(loadMs / 1000, 1),
        num(buildMs / 1000, 1),
        num(insertMsPerRow, 2),
        num(Number(size.table) / count, 0),
        num(Number(size.index) / count, 0),
        num(perVector, 0),
      ]);
      console.log(
        markdownTable(HEADERS, [rows.at(-1)!])
          .split('\n')
          .at(-1),
      );
      await db.exec(`DROP TABLE ${table}`);
    }
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${markdownTable(HEADERS, rows)}\nload at the end ${machineFacts().loadAverage.join(' / ')}`);
}

const HEADERS = [
  'variant',
  'recall@10',
  'p50 ms',
  'p95 ms',
  'load CPU s',
  'index build CPU s',
  'insert through index CPU ms/row',
  'table B/vector',
  'index B/vector',
  'disk B/vector',
];

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
