import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { insertBigAndSmall } from '../../testing/index-fixtures';
import { CHANNEL_DEPTH, connectionScope } from './channel-scope';
import { keywordMatches, keywordScan, termPatterns } from './keyword-scan';

let db: Db;
/** Chunk ids by connection, in insertion order (insertBigAndSmall). */
let ids: { big: number[]; small: number[] };

beforeAll(async () => {
  db = await openDatabase();
  ids = await insertBigAndSmall(db);
});
afterAll(async () => {
  await db.close();
});

describe('keywordScan', () => {
  it('returns the top chunks by BM25, within a scope when one is given', async () => {
    const scan = await keywordScan(db, 'alpha', connectionScope(['small']));
    expect(scan.terms).toEqual(['alpha']);
    expect(scan.ids.every((id) => ids.small.includes(id))).toBe(true);
    const top = await keywordScan(db, 'alpha', null);
    expect(top.ids).toHaveLength(CHANNEL_DEPTH);
    expect(top.ids.every((id) => ids.big.includes(id))).toBe(true);
    expect(await keywordScan(db, '', null)).toEqual({ ids: [], scores: null, terms: [] });
    expect(top.scores).toBeNull();
    const scored = await keywordScan(db, 'alpha', null, { withScores: true });
    expect(scored.ids).toEqual(top.ids);
    expect(scored.scores).toHaveLength(CHANNEL_DEPTH);
    // Best first: the scan's own BM25 scores, positive and falling.
    expect(
      scored.scores!.every((score, i) => score > 0 && (i === 0 || score <= scored.scores![i - 1]!)),
    ).toBe(true);
  });

  it('returns rows sharing no term after the matches once its top list outgrows them (checked by keywordMatches)', async () => {
    const [first, second, third] = ids.small;
    // "beta" fills the top lists with big's chunks; the last one (1,920) holds every row of the table.
    const scan = await keywordScan(db, 'omega beta', connectionScope(['small']));
    expect([scan.ids[0], scan.ids.slice(1).sort((a, b) => a - b)]).toEqual([third, [first, second]]);
    expect(await keywordMatches(db, 'omega beta', connectionScope(['small']))).toEqual([third]);
  });
});

describe('keywordMatches', () => {
  it('finds a filtered connection’s matches in the oversampled top list, and below every other result', async () => {
    expect(await keywordMatches(db, 'omega beta', connectionScope(['small']))).toEqual([ids.small[2]]);
    const [first, , third] = ids.small;
    // The shorter chunk scores higher (BM25 length normalisation).
    expect(await keywordMatches(db, 'alpha', connectionScope(['small']))).toEqual([first, third]);
  });

  it('keeps only chunks that share a whole query term', async () => {
    expect(await keywordMatches(db, 'nosuchterm', null)).toEqual([]);
    expect(await keywordMatches(db, '', null)).toEqual([]);
    expect(await keywordMatches(db, 'omega', null)).toEqual([ids.small[2]]);
    // "alph" is part of a word, not a word.
    expect(await keywordMatches(db, 'alph', null)).toEqual([]);
  });

  it('escapes LIKE wildcards in terms', () => {
    expect(termPatterns(['a_b', '100%', 'c\\d'])).toEqual(['% a\\_b %', '% 100\\% %', '% c\\\\d %']);
  });
});
