/**
 * When a space gets an HNSW index, measured in PGlite (docs/decisions/vector-index.md): an exact
 * scan is cheap for small spaces, so no index below ANN_MIN_ROWS. The semantic index builds it once
 * the space reaches that size (spaces/semantic-index.ts) and inserts through it from then on: a
 * bulk rebuild would hold PGlite's one connection for minutes at 100k vectors, and keyword search
 * must keep answering while vectors are built.
 */
import type { Db } from '../db/database';
import { spaceTable, vectorType, type SpaceRecord } from './embedding-spaces';

type Queryable = Pick<Db, 'query' | 'exec'>;

/** Below this many vectors an exact scan answers in a few ms; an index would only slow writes. */
export const ANN_MIN_ROWS = 2000;

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
 * Builds the HNSW index when the space is big enough and has none. The build holds PGlite's one
 * connection (searches wait): at ANN_MIN_ROWS vectors that is a few seconds.
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
