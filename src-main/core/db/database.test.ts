import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from './database';
import { templatePath, writeTemplate } from './database-template';
import { MIGRATIONS } from './migrations/index';

const scratch = mkdtempSync(join(tmpdir(), 'cairn-db-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What the migrations built: tables and columns, indexes, extensions and the recorded versions. */
async function schemaOf(db: Db): Promise<unknown> {
  const rows = async (sql: string) => (await db.query(sql)).rows;
  return {
    columns: await rows(
      "SELECT table_name, column_name, data_type, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2",
    ),
    indexes: await rows("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"),
    extensions: await rows('SELECT extname, extversion FROM pg_extension ORDER BY 1'),
    versions: await rows('SELECT version, name FROM schema_migrations ORDER BY version'),
  };
}

describe('openDatabase', () => {
  it('applies every migration once and records it', async () => {
    const db = await openDatabase({ templates: null });
    const versions = (
      await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    ).rows.map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db, MIGRATIONS)).toEqual([]);
    await db.close();
  });

  it('makes a database on disk with 1 MB log segments and without the template databases', async () => {
    const db = await openDatabase({ dataDir: join(scratch, 'lean'), templates: null });
    const settings = await db.query<{ wal_segment_size: string }>('SHOW wal_segment_size');
    const databases = await db.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1');
    await db.close();
    expect(settings.rows[0]?.wal_segment_size).toBe('1MB');
    expect(databases.rows.map((row) => row.datname)).toEqual(['postgres']);
    // Opened again, it stays so (nothing to drop a second time).
    const again = await openDatabase({ dataDir: join(scratch, 'lean'), templates: null });
    const after = await again.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_database');
    await again.close();
    expect(after.rows[0]?.n).toBe(1);
  });

  it('leaves a template database an older version kept to the next open that does not keep it (a one-shot read)', async () => {
    const dataDir = join(scratch, 'kept');
    const db = await openDatabase({ dataDir });
    // As a data directory made before the template databases were dropped at creation.
    await db.exec('CREATE DATABASE template1 TEMPLATE postgres');
    await db.close();
    const names = async (open: Db) =>
      (await open.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1')).rows.map(
        (row) => row.datname,
      );
    const reader = await openDatabase({ dataDir, keepUnusedDatabases: true });
    expect(await names(reader)).toEqual(['postgres', 'template1']);
    await reader.close();
    const writer = await openDatabase({ dataDir });
    expect(await names(writer)).toEqual(['postgres']);
    await writer.close();
  });

  it('finds the migrations on record with reads only: an up-to-date database runs no DDL on open', async () => {
    const db = await openDatabase();
    const statements: string[] = [];
    const recording = new Proxy(db, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'exec' || property === 'query' || property === 'transaction')
            statements.push(typeof args[0] === 'string' ? args[0] : String(property));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    expect(await migrate(recording, MIGRATIONS)).toEqual([]);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((sql) => !/^\s*SELECT\b/i.test(sql))).toEqual([]);
    await db.close();
  });

  it('rolls back a failing migration as a whole', async () => {
    // From the migrated template (the test below checks it equals a migrated database): initdb and
    // every migration already ran once in the test above.
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

describe('openDatabase with templates', () => {
  it('writes the template from the first new database, and one opened from it has the same schema as a migrated one', async () => {
    const folder = join(scratch, 'written');
    // No template there yet: `first` runs initdb and every migration, then writes the template.
    const first = await openDatabase({ templates: folder });
    expect(readdirSync(folder)).toEqual([templatePath(folder, MIGRATIONS).slice(folder.length + 1)]);
    const fromTemplate = await openDatabase({ templates: folder });
    expect(await schemaOf(fromTemplate)).toEqual(await schemaOf(first));
    await Promise.all([first.close(), fromTemplate.close()]);
  });

  it('starts a new database from the template, in memory and on disk, and leaves an existing one alone', async () => {
    // A template with a mark no migration makes proves where a database came from.
    const folder = join(scratch, 'marked');
    // Whatever it starts from (the suite's template here), the mark is what the test follows.
    const marked = await openDatabase();
    await marked.exec('CREATE TABLE template_mark (id int); INSERT INTO template_mark VALUES (7)');
    await writeTemplate(marked, templatePath(folder, MIGRATIONS));
    await marked.close();
    const mark = async (db: Db) =>
      (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'template_mark'",
        )
      ).rows[0]?.n;

    const inMemory = await openDatabase({ templates: folder });
    const dataDir = join(scratch, 'on-disk');
    const onDisk = await openDatabase({ dataDir, templates: folder });
    await onDisk.exec('INSERT INTO template_mark VALUES (8)');
    expect([await mark(inMemory), await mark(onDisk), existsSync(join(dataDir, 'PG_VERSION'))]).toEqual([
      1,
      1,
      true,
    ]);
    // Each in-memory database has its own copy of the template's files: what one writes and
    // checkpoints, the next one opened in this process does not see.
    await inMemory.exec('INSERT INTO template_mark VALUES (9); CHECKPOINT');
    const nextInMemory = await openDatabase({ templates: folder });
    expect(
      (await nextInMemory.query<{ id: number }>('SELECT id FROM template_mark ORDER BY id')).rows,
    ).toEqual([{ id: 7 }]);
    await Promise.all([inMemory.close(), onDisk.close(), nextInMemory.close()]);

    // Reopened, the on-disk database keeps what was written since; without a template nothing is marked.
    const reopened = await openDatabase({ dataDir, templates: folder });
    const plain = await openDatabase({ dataDir: join(scratch, 'plain'), templates: null });
    expect({
      kept: (await reopened.query<{ id: number }>('SELECT id FROM template_mark ORDER BY id')).rows,
      versions: (await reopened.query('SELECT version FROM schema_migrations')).rows.length,
      plain: await mark(plain),
    }).toEqual({ kept: [{ id: 7 }, { id: 8 }], versions: MIGRATIONS.length, plain: 0 });
    await Promise.all([reopened.close(), plain.close()]);
  });
});
