/**
 * The vector channel's statement run alone, for studies of its parameters (bench/ann-sweep.ts:
 * ef_search, the HNSW hits re-scored, the lexical candidates). The app never runs it alone: its
 * search runs it inside the one index statement (src-main/core/search/index-retrieval.ts), which
 * is what the benchmark and the evaluation measure.
 */
import type { Db } from '../src-main/core/db/database';
import type { SpaceRecord } from '../src-main/core/index/embedding-spaces';
import type { ChannelScope } from '../src-main/core/search/channel-scope';
import { vectorChannelSql, type VectorChannelOptions } from '../src-main/core/search/vector-channel';

/** Top chunk ids by exact cosine distance among the statement's candidates, best first. */
export async function vectorChannel(
  db: Db,
  space: SpaceRecord,
  queryVector: Float32Array,
  scope: ChannelScope | null,
  options: VectorChannelOptions = {},
): Promise<number[]> {
  const params: unknown[] = [];
  const sql = vectorChannelSql(space, queryVector, scope, options, params);
  if (!sql) return [];
  const rows = await db.query<{ chunk_id: string | number }>(sql, params);
  return rows.rows.map((r) => Number(r.chunk_id));
}
