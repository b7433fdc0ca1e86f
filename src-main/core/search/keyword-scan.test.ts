import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { insertConnection } from '../../testing/index-fixtures';
import { CHANNEL_DEPTH, connectionScope } from './channel-scope';
import { keywordMatches, keywordScan, termPatterns } from './keyword-scan';

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

describe('keywordScan', () => {
  it('returns the top chunks by BM25 and a deeper list of candidates from the whole index', async () => {
    const scan = await keywordScan(db, 'alpha', connectionScope(['small']), 300);
    expect(scan.terms).toEqual(['alpha']);
    expect(scan.candidates).toHaveLength(300);
    expect(scan.candidates.some((id) => ids.big!.includes(id))).toBe(true);
    const top = await keywordScan(db, 'alpha', null);
    expect(top.ids).toHaveLength(CHANNEL_DEPTH);
    expect(top.ids.every((id) => ids.big!.includes(id))).toBe(true);
    expect(top.candidates).toEqual([]);
    expect(await keywordScan(db, '', null)).toEqual({ ids: [], candidates: [], terms: [] });
  });

  it('returns rows sharing no term after the matches once its top list outgrows them (checked by keywordMatches)', async () => {
    const [first, second, third] = ids.small!;
    // "beta" fills the top lists with big's chunks; the last one (1,920) holds every row of the table.
    const scan = await keywordScan(db, 'omega beta', connectionScope(['small']));
    expect([scan.ids[0], scan.ids.slice(1).sort((a, b) => a - b)]).toEqual([third, [first, second]]);
    expect(await keywordMatches(db, 'omega beta', connectionScope(['small']))).toEqual([third]);
  });
});

describe('keywordMatches', () => {
  it('finds a filtered connection’s matches in the oversampled top list, and below every other result', async () => {
    expect(await keywordMatches(db, 'omega beta', connectionScope(['small']))).toEqual([ids.small![2]]);
    const [first, , third] = ids.small!;
    // The shorter chunk scores higher (BM25 length normalisation).
    expect(await keywordMatches(db, 'alpha', connectionScope(['small']))).toEqual([first, third]);
  });

  it('keeps only chunks that share a whole query term', async () => {
    expect(await keywordMatches(db, 'nosuchterm', null)).toEqual([]);
    expect(await keywordMatches(db, '', null)).toEqual([]);
    expect(await keywordMatches(db, 'omega', null)).toEqual([ids.small![2]]);
    // "alph" is part of a word, not a word.
    expect(await keywordMatches(db, 'alph', null)).toEqual([]);
  });

  it('escapes LIKE wildcards in terms', () => {
    expect(termPatterns(['a_b', '100%', 'c\\d'])).toEqual(['% a\\_b %', '% 100\\% %', '% c\\\\d %']);
  });
});
