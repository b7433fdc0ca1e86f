/**
 * The exact reference over the vectors a space holds, read back from the database in pgvector's
 * binary form (vector_send / halfvec_send: int16 dimensions, int16 unused, then big-endian float32
 * or float16), a page of rows at a time. The reference is therefore exact for what is stored: the
 * recall measured against it is the approximate index's, not the storage format's (that one is
 * bench/vector-format-study.ts's).
 */
import type { Db } from '../src-main/core/db/database';
import { spaceTable, vectorType, type SpaceRecord } from '../src-main/core/index/embedding-spaces';
import { ExactVectorIndex } from './exact-search';

const PAGE = 5_000;

/** float16 bits → number. */
function fromHalf(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (mantissa / 1024);
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
}

export async function loadStoredVectors(db: Db, space: SpaceRecord): Promise<ExactVectorIndex> {
  const type = vectorType(space);
  const dimensions = space.dimensions;
  const ids: number[] = [];
  const parts: Float32Array[] = [];
  for (let after = -1; ;) {
    const rows = (
      await db.query<{ chunk_id: string | number; bytes: Uint8Array }>(
        `SELECT chunk_id, ${type}_send(embedding) AS bytes FROM ${spaceTable(space)}
         WHERE chunk_id > $1 ORDER BY chunk_id LIMIT ${PAGE}`,
        [after],
      )
    ).rows;
    if (rows.length === 0) break;
    const page = new Float32Array(rows.length * dimensions);
    rows.forEach((row, r) => {
      const view = new DataView(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      for (let i = 0; i < dimensions; i++)
        page[r * dimensions + i] =
          type === 'vector' ? view.getFloat32(4 + 4 * i) : fromHalf(view.getUint16(4 + 2 * i));
      ids.push(Number(row.chunk_id));
    });
    parts.push(page);
    after = Number(rows.at(-1)!.chunk_id);
  }
  const matrix = new Float32Array(ids.length * dimensions);
  let offset = 0;
  for (const part of parts) {
    matrix.set(part, offset);
    offset += part.length;
  }
  return new ExactVectorIndex(ids, matrix, dimensions);
}
