import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './database';
import { MIGRATIONS } from './migrations/index';

describe('openDatabase', () => {
  it('applies every migration once and records it', async () => {
    const db = await openDatabase();
    const versions = (
      await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    ).rows.map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db, MIGRATIONS)).toEqual([]);
    await db.close();
  });

  it('rolls back a failing migration as a whole', async () => {
    const db = await openDatabase();
    const broken = {
      version: 999,
      name: 'broken',
      sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();',
    };
    await expect(migrate(db, [...MIGRATIONS, broken])).rejects.toThrow();
    const tables = (
      await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'half_done'")
    ).rows[0]?.n;
    expect(tables).toBe(0);
    await db.close();
  });
});
