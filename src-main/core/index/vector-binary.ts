/**
 * Vectors as ONE binary query parameter of type vector[] or halfvec[], in Postgres' binary array
 * format around pgvector's binary element format (its recv functions: int16 dimensions, int16
 * unused, then big-endian float32, or float16 for halfvec). PGlite sends a parameter in binary
 * when its serializer returns bytes. Formatting 1,024 floats as text in JavaScript and parsing them
 * again in Postgres cost ~10x more CPU per vector than this (docs/decisions/indexing-throughput.md).
 * References: https://www.postgresql.org/docs/current/protocol-overview.html#PROTOCOL-FORMAT-CODES,
 * array_recv in src/backend/utils/adt/arrayfuncs.c, vector_recv/halfvec_recv in pgvector.
 */
import type { Db } from '../db/database';
import { CairnError } from '../errors';

type Queryable = Pick<Db, 'query'>;

export type VectorType = 'vector' | 'halfvec';

interface TypeOids {
  element: number;
  array: number;
}

/** Type oids per database and type: the extension's types get their oids when it is created. */
const oidCache = new WeakMap<object, Map<VectorType, Promise<TypeOids>>>();

async function typeOids(db: Queryable, type: VectorType): Promise<TypeOids> {
  let byType = oidCache.get(db);
  if (!byType) oidCache.set(db, (byType = new Map()));
  let oids = byType.get(type);
  if (!oids) {
    oids = db
      .query<{ element: number; array: number }>(
        `SELECT '${type}'::regtype::oid::int AS element, '${type}[]'::regtype::oid::int AS array`,
      )
      .then((result) => result.rows[0]!);
    byType.set(type, oids);
    oids.catch(() => byType.delete(type));
  }
  return oids;
}

/** IEEE 754 half precision bits of a float32 value, rounded to nearest even (as pgvector does). */
export function toHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow: infinity (rejected by pgvector, as text input would be)
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mantissa | 0x800000;
    const shift = 14 - e;
    const half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    return sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/**
 * The bytes of a one-dimensional `type[]` holding `vectors` (all of `dimensions` values), and the
 * query options that make PGlite send them as a binary parameter. Use as `$n::vector(d)[]`.
 */
export async function vectorArrayParam(
  db: Queryable,
  type: VectorType,
  dimensions: number,
  vectors: readonly ArrayLike<number>[],
): Promise<{ value: Uint8Array; options: { serializers: Record<number, (value: unknown) => string> } }> {
  const oids = await typeOids(db, type);
  const width = type === 'vector' ? 4 : 2;
  const elementBytes = 4 + dimensions * width;
  const buffer = new ArrayBuffer(20 + vectors.length * (4 + elementBytes));
  const view = new DataView(buffer);
  view.setInt32(0, 1); // dimensions of the array
  view.setInt32(4, 0); // no nulls
  view.setInt32(8, oids.element);
  view.setInt32(12, vectors.length);
  view.setInt32(16, 1); // lower bound
  let offset = 20;
  for (const vector of vectors) {
    if (vector.length !== dimensions)
      throw new CairnError(
        'EMBEDDING_FAILED',
        `A vector has ${vector.length} dimensions; the space has ${dimensions}.`,
      );
    view.setInt32(offset, elementBytes);
    view.setInt16(offset + 4, dimensions);
    view.setInt16(offset + 6, 0);
    offset += 8;
    if (type === 'vector')
      for (let i = 0; i < dimensions; i++, offset += 4) view.setFloat32(offset, vector[i]!);
    else for (let i = 0; i < dimensions; i++, offset += 2) view.setUint16(offset, toHalf(vector[i]!));
  }
  // PGlite sends a parameter as binary when its serializer hands back bytes instead of text.
  const passBytes = (value: unknown) => value as string;
  return { value: new Uint8Array(buffer), options: { serializers: { [oids.array]: passBytes } } };
}
