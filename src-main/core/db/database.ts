/**
 * The database has one door (STYLE.md §5): this module opens PGlite with its extensions and runs
 * the numbered migrations. Everything else receives the open handle.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { MIGRATIONS, type Migration } from './migrations/index';

export type Db = PGlite;

export interface OpenDatabaseOptions {
  /** A directory for on-disk data, or undefined for an in-memory database (tests). */
  dataDir?: string;
  migrations?: Migration[];
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Db> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    extensions: { vector, pg_textsearch },
  });
  await migrate(db, options.migrations ?? MIGRATIONS);
  return db;
}

export async function migrate(db: Db, migrations: Migration[]): Promise<number[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied = new Set(
    (await db.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
  );
  const ran: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    });
    ran.push(migration.version);
  }
  return ran;
}
