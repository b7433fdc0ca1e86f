import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { toHalf, vectorArrayParam } from './vector-binary';

let db: Db;
beforeAll(async () => {
  db = await openDatabase();
});
afterAll(async () => {
  await db.close();
});

const vectors = [
  Float32Array.from([0.1, -0.2, 1 / 3, 0]),
  Float32Array.from([1e-8, -65504, 65519, 3.14159265]),
  Float32Array.from([0, 6.1e-5, 5.96e-8, 2.98e-8]),
];

describe('vectorArrayParam', () => {
  it('stores exactly the float32 values, as full-precision text literals would, for vector and halfvec', async () => {
    for (const type of ['vector', 'halfvec'] as const) {
      const param = await vectorArrayParam(db, type, 4, vectors);
      const binary = await db.query<{ v: string }>(
        `SELECT v::text AS v FROM unnest($1::${type}(4)[]) WITH ORDINALITY AS u(v, n) ORDER BY n`,
        [param.value],
        param.options,
      );
      const text = await db.query<{ v: string }>(
        `SELECT v::${type}(4)::text AS v FROM unnest($1::text[]) WITH ORDINALITY AS u(v, n) ORDER BY n`,
        // Every float32 printed in full (toVectorLiteral keeps 7 digits, binary loses nothing).
        [vectors.map((v) => `[${Array.from(v).join(',')}]`)],
      );
      expect(binary.rows).toEqual(text.rows);
    }
  });

  it('refuses a vector of the wrong width, and pgvector refuses a NaN', async () => {
    await expect(vectorArrayParam(db, 'vector', 3, vectors)).rejects.toMatchObject({
      code: 'EMBEDDING_FAILED',
    });
    const param = await vectorArrayParam(db, 'vector', 2, [Float32Array.from([Number.NaN, 1])]);
    await expect(db.query('SELECT unnest($1::vector(2)[])', [param.value], param.options)).rejects.toThrow(
      /NaN/,
    );
  });
});

describe('toHalf', () => {
  it('rounds to the nearest half float, ties to even, and saturates to infinity', () => {
    expect(
      [1, -2, 0.5, 65504, 65520, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** -24, 2 ** -26].map(toHalf),
    ).toEqual([0x3c00, 0xc000, 0x3800, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0001, 0x0000]);
  });
});
