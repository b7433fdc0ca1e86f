/**
 * When a space gets an HNSW index, measured in PGlite (docs/decisions/vector-index.md):
 * an exact scan is cheap for small spaces, a bulk HNSW build costs ~2 ms per row while inserting
 * into an existing HNSW index costs ~10 ms per row. So: no index below ANN_MIN_ROWS; a write burst
 * that is large against the space drops the index first and `optimize()` rebuilds it in bulk.
 */
import type { Db } from '../db/database';
import { spaceTable, vectorType, type SpaceRecord } from './embedding-spaces';

type Queryable = Pick<Db, 'query' | 'exec'>;

/** Below this many vectors an exact scan answers in a few ms; an index would only slow writes. */
export const ANN_MIN_ROWS = 2000;
/** Measured per-row costs (ms): inserting into an existing HNSW graph vs building it in bulk. */
const HNSW_INSERT_MS_PER_ROW = 10;
const HNSW_BUILD_MS_PER_ROW = 2;

export function annIndexName(space: Pick<SpaceRecord, 'id'>): string {
  return `${spaceTable(space)}_hnsw`;
}

export async function hasAnnIndex(db: Queryable, space: SpaceRecord): Promise<boolean> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = $1',
    [annIndexName(space)],
  );
  return (rows.rows[0]?.n ?? 0) > 0;
}

export async function countVectors(db: Queryable, space: SpaceRecord): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spaceTable(space)}`);
  return rows.rows[0]?.n ?? 0;
}

/**
 * True when writing `plannedRows` into a space of `existingRows` one by one through the HNSW
 * index would cost more than rebuilding the whole index afterwards.
 */
export function shouldDropBeforeBulkWrite(existingRows: number, plannedRows: number): boolean {
  return plannedRows * HNSW_INSERT_MS_PER_ROW > (existingRows + plannedRows) * HNSW_BUILD_MS_PER_ROW;
}

export async function dropAnnIndex(db: Queryable, space: SpaceRecord): Promise<void> {
  await db.exec(`DROP INDEX IF EXISTS ${annIndexName(space)}`);
}

/**
 * Builds the HNSW index when the space is big enough and has none. The build holds PGlite's one
 * connection (searches wait), which is why it runs after a sync, not during it.
 * maintenance_work_mem is raised because pgvector's build slows down sharply once the graph no
 * longer fits in it (https://github.com/pgvector/pgvector#index-build-time).
 */
export async function ensureAnnIndex(
  db: Queryable,
  space: SpaceRecord,
): Promise<'built' | 'exists' | 'too-small'> {
  if (await hasAnnIndex(db, space)) return 'exists';
  if ((await countVectors(db, space)) < ANN_MIN_ROWS) return 'too-small';
  await db.exec(`SET maintenance_work_mem = '512MB'`);
  try {
    await db.exec(
      `CREATE INDEX IF NOT EXISTS ${annIndexName(space)} ON ${spaceTable(space)} USING hnsw (embedding ${vectorType(space)}_cosine_ops)`,
    );
  } finally {
    await db.exec('RESET maintenance_work_mem');
  }
  return 'built';
}
