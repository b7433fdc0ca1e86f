import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { runWithLargeText } from './large-text-statement';

let db: Db;

beforeAll(async () => {
  db = await openDatabase();
  await db.exec('CREATE TABLE texts (id int PRIMARY KEY, body text NOT NULL)');
  await db.query(`INSERT INTO texts VALUES (1, ''), (2, '')`);
});
afterAll(async () => db.close());

/** 3 MB of mixed scripts, with the characters the framing must count in UTF-8 bytes, not UTF-16 units. */
const LARGE = '数据库事务 index 😀 é\n\t|'.repeat(120_000);

describe('runWithLargeText', () => {
  it('stores a large text whole inside the caller’s transaction, which then goes on as usual', async () => {
    const tag = await db.transaction(async (tx) => {
      const answered = await runWithLargeText(db, 'UPDATE texts SET body = $2 WHERE id = $1', ['1', LARGE]);
      // The same session, still in the transaction: it sees its own write.
      const seen = await tx.query<{ same: boolean }>('SELECT body = $1 AS same FROM texts WHERE id = 1', [
        LARGE,
      ]);
      expect(seen.rows[0]?.same).toBe(true);
      return answered;
    });
    expect(tag).toBe('UPDATE 1');
    const stored = await db.query<{ length: number; same: boolean }>(
      'SELECT length(body) AS length, body = $1 AS same FROM texts WHERE id = 1',
      [LARGE],
    );
    expect(stored.rows[0]).toEqual({ length: [...LARGE].length, same: true });
  });

  it('fails with the database’s error, and the transaction rolls back whole', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`UPDATE texts SET body = 'changed first' WHERE id = 2`);
        await runWithLargeText(db, 'UPDATE texts SET body = $2 WHERE id = $1', ['not a number', LARGE]);
      }),
    ).rejects.toThrow(/invalid input syntax for type integer/);
    const row = await db.query<{ body: string }>('SELECT body FROM texts WHERE id = 2');
    expect(row.rows[0]?.body).toBe('');
    // The session answers the next statement normally.
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  });
});
