import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { insertConnection } from '../../testing/index-fixtures';
import { ensureActiveSpace, spaceTable, type SpaceRecord } from '../index/embedding-spaces';
import { toVectorLiteral } from '../index/vector-literal';
import {
  CHANNEL_DEPTH,
  connectionScope,
  keywordChannel,
  keywordSearch,
  vectorChannel,
} from './index-channels';

let db: Db;
/** Chunk ids by connection, in insertion order. */
const ids: Record<string, number[]> = { big: [], small: [] };

async function insertChunks(connectionId: string, texts: string[]): Promise<void> {
  const documentId = (
    await db.query<{ id: number }>(
      `INSERT INTO documents (connection_id, external_id, title, knowledge_base, content_hash, content, chunk_count)
       VALUES ($1, $1, $1, 'kb', 'h', 'x', $2) RETURNING id`,
      [connectionId, texts.length],
    )
  ).rows[0]!.id;
  const rows = await db.query<{ id: number }>(
    `INSERT INTO chunks (document_id, connection_id, ord, heading_path, content, char_start, char_end, search_text)
     SELECT $1, $2, ord - 1, '', text, 0, 1, text FROM unnest($3::text[]) WITH ORDINALITY AS u(text, ord)
     RETURNING id`,
    [documentId, connectionId, texts],
  );
  ids[connectionId]!.push(...rows.rows.map((r) => Number(r.id)));
}

beforeAll(async () => {
  db = await openDatabase();
  await insertConnection(db, 'big');
  await insertConnection(db, 'small');
  // 'big' outranks 'small' on "alpha" everywhere, 600 times: a filter to 'small' widens the
  // top list (120, 480, 1,920) until it holds every match.
  await insertChunks(
    'big',
    Array.from({ length: 600 }, (_, i) => `alpha alpha alpha beta ${i}`),
  );
  await insertChunks('small', [
    'alpha gamma delta epsilon zeta eta theta iota kappa lambda',
    'nothing shared here',
    'alpha mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega',
  ]);
});
afterAll(async () => {
  await db.close();
});

describe('keywordChannel', () => {
  it('returns the top chunks that share a query term, best first, and none that do not', async () => {
    const top = await keywordChannel(db, 'alpha', null);
    expect(top).toHaveLength(CHANNEL_DEPTH);
    expect(top.every((id) => ids.big!.includes(id))).toBe(true);
    expect(await keywordChannel(db, 'nosuchterm', null)).toEqual([]);
    expect(await keywordChannel(db, '', null)).toEqual([]);
  });

  it('finds a filtered connection’s matches in the oversampled top list', async () => {
    expect(await keywordChannel(db, 'omega beta', connectionScope(['small']))).toEqual([ids.small![2]]);
  });

  it('finds a filtered connection’s matches below every other result', async () => {
    const [first, , third] = ids.small!;
    // The shorter chunk scores higher (BM25 length normalisation).
    expect(await keywordChannel(db, 'alpha', connectionScope(['small']))).toEqual([first, third]);
  });
});

describe('vectorChannel', () => {
  let space: SpaceRecord;
  /** A 2-d direction per chunk, so the exact order is known: chunk i at angle i degrees from the x axis. */
  const angleOf = new Map<number, number>();

  beforeAll(async () => {
    space = (await ensureActiveSpace(db, { provider: 'test', model: 'angles', dimensions: 2 })).active;
    const all = [...ids.big!, ...ids.small!];
    await db.query(
      `INSERT INTO ${spaceTable(space)} (chunk_id, connection_id, embedding)
       SELECT id, connection_id, v::vector(2) FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, connection_id, v)`,
      [
        all,
        all.map((id) => (ids.small!.includes(id) ? 'small' : 'big')),
        all.map((id, i) => {
          angleOf.set(id, i % 180);
          const radians = ((i % 180) * Math.PI) / 180;
          return toVectorLiteral([Math.cos(radians), Math.sin(radians)]);
        }),
      ],
    );
  });

  const exactOrder = (candidates: number[]) =>
    [...candidates].sort((a, b) => angleOf.get(a)! - angleOf.get(b)! || a - b).slice(0, CHANNEL_DEPTH);

  it('ranks by exact cosine distance, with or without lexical candidates', async () => {
    const x = Float32Array.from([1, 0]);
    const all = [...angleOf.keys()];
    expect(await vectorChannel(db, space, x, null)).toEqual(exactOrder(all));
    const { candidates } = await keywordSearch(db, 'omega', null, 300);
    expect(candidates).toEqual([ids.small![2]]);
    expect(await vectorChannel(db, space, x, null, { candidates })).toEqual(exactOrder(all));
  });

  it('applies the connection filter and the similarity floor to every candidate', async () => {
    const x = Float32Array.from([1, 0]);
    // "alpha" brings big's chunks in as lexical candidates; the filter keeps them out.
    const { candidates } = await keywordSearch(db, 'alpha', connectionScope(['small']), 300);
    expect(candidates).toHaveLength(300);
    expect(candidates.some((id) => ids.big!.includes(id))).toBe(true);
    const small = await vectorChannel(db, space, x, connectionScope(['small']), { candidates });
    expect(small).toEqual(exactOrder(ids.small!));
    // cos(angle) >= 0.9 keeps angles up to 25 degrees.
    const near = await vectorChannel(db, space, x, null, { minSimilarity: 0.9 });
    expect(near.every((id) => angleOf.get(id)! <= 25)).toBe(true);
    expect(near.length).toBeGreaterThan(0);
  });
});
