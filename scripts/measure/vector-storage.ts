/**
 * Does the vector column's storage (pgvector's default EXTERNAL: a 4 KB vector goes out of line to
 * the TOAST table) or PLAIN (inline, one row per 8 KB page) change the write and HNSW build cost?
 * Run: npx tsx scripts/measure/vector-storage.ts [rows=3000] [rounds=2]
 * Interleaved in one process on an on-disk PGlite; CPU seconds of this process per variant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src-main/core/db/database';
import { vectorArrayParam } from '../../src-main/core/index/vector-binary';
import { seededRandom } from '../../src-main/testing/seeded-random';

const ROWS = Number(process.argv[2] ?? 3000);
const ROUNDS = Number(process.argv[3] ?? 2);
const DIMS = 1024;
const GROUP = 32;

function vectors(seed: number): Float32Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: ROWS }, () => {
    const v = new Float32Array(DIMS);
    // Sparse-ish like the hashed vectors: ~300 non-zero buckets.
    for (let i = 0; i < 300; i++) v[Math.floor(random() * DIMS)] += random() - 0.5;
    let norm = 0;
    for (const x of v) norm += x * x;
    for (let i = 0; i < DIMS; i++) v[i]! /= Math.sqrt(norm);
    return v;
  });
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vector-storage-'));
  const db = await openDatabase({ dataDir: dir, templates: null });
  const data = vectors(1);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const storage of ['EXTERNAL', 'PLAIN'] as const) {
        const table = `v_${storage.toLowerCase()}_${round}`;
        await db.exec(
          `CREATE TABLE ${table} (chunk_id bigint PRIMARY KEY, connection_id text NOT NULL, embedding vector(${DIMS}) NOT NULL);
           ALTER TABLE ${table} ALTER COLUMN embedding SET STORAGE ${storage}`,
        );
        let c = cpu();
        let w = performance.now();
        for (let start = 0; start < ROWS; start += GROUP) {
          const group = data.slice(start, start + GROUP);
          await db.transaction(async (tx) => {
            const param = await vectorArrayParam(tx, 'vector', DIMS, group);
            await tx.query(
              `INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::text[], $3::vector(${DIMS})[])`,
              [group.map((_, i) => start + i), group.map(() => 'c1'), param.value],
              param.options,
            );
          });
        }
        const writeCpu = cpu() - c;
        const writeWall = (performance.now() - w) / 1000;
        c = cpu();
        w = performance.now();
        await db.exec(`SET maintenance_work_mem = '512MB'`);
        await db.exec(`CREATE INDEX ${table}_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops)`);
        const buildCpu = cpu() - c;
        const buildWall = (performance.now() - w) / 1000;
        console.log(
          `${storage.padEnd(8)} round ${round}: write ${writeCpu.toFixed(2)} CPU s (${writeWall.toFixed(2)} wall), HNSW build ${buildCpu.toFixed(2)} CPU s (${buildWall.toFixed(2)} wall), load ${loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
