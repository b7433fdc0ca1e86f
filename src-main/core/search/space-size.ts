/**
 * How many vectors an embedding space holds, roughly and cheaply, for settings that grow with the
 * index (search-tuning.ts lexicalCandidates). An exact count(*) reads every row (tens of ms at 100k
 * chunks in PGlite), so this is the planner's own estimate: the row density last measured
 * (pg_class.reltuples / relpages, updated by CREATE INDEX, which every bulk sync ends with) times
 * the table's current size in pages. A table never measured (reltuples -1: small, no HNSW index
 * yet) is counted. Kept for MAX_AGE_MS: an index grows by syncs, not between two searches.
 */
import type { Db } from '../db/database';
import { spaceTable, type SpaceRecord } from '../index/embedding-spaces';

const MAX_AGE_MS = 30_000;

export class SpaceSizes {
  private readonly known = new Map<number, { vectors: Promise<number>; readAt: number }>();

  constructor(
    private readonly db: Pick<Db, 'query'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The space's vector count, estimated; 0 when its table cannot be read. */
  vectors(space: SpaceRecord): Promise<number> {
    const kept = this.known.get(space.id);
    if (kept && this.now() - kept.readAt < MAX_AGE_MS) return kept.vectors;
    const vectors = estimateVectors(this.db, space).catch(() => 0);
    this.known.set(space.id, { vectors, readAt: this.now() });
    return vectors;
  }
}

export async function estimateVectors(db: Pick<Db, 'query'>, space: SpaceRecord): Promise<number> {
  const table = spaceTable(space);
  const rows = await db.query<{ n: number | string | null }>(
    `SELECT CASE WHEN reltuples >= 0 AND relpages > 0
              THEN reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int)
            END AS n
     FROM pg_class WHERE oid = $1::regclass`,
    [table],
  );
  const estimate = rows.rows[0]?.n;
  if (estimate !== null && estimate !== undefined) return Math.round(Number(estimate));
  const counted = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return counted.rows[0]?.n ?? 0;
}
