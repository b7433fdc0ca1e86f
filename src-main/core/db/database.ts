/**
 * The database has one door (STYLE.md §5): this module opens PGlite with its extensions and runs
 * the numbered migrations. Everything else receives the open handle.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { readTemplate, templatePath, writeTemplate } from './database-template';
import { MIGRATIONS, type Migration } from './migrations/index';

export type Db = PGlite;

export interface OpenDatabaseOptions {
  /** A directory for on-disk data, or undefined for an in-memory database (tests). */
  dataDir?: string;
  migrations?: Migration[];
  /**
   * A folder of templates a NEW database with the standard migrations starts from instead of
   * running initdb and every migration (database-template.ts); null for none.
   * @default process.env.CAIRN_DB_TEMPLATES
   */
  templates?: string | null;
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Db> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const migrations = options.migrations ?? MIGRATIONS;
  const folder = options.templates === undefined ? process.env.CAIRN_DB_TEMPLATES : options.templates;
  const isNew = !options.dataDir || !existsSync(join(options.dataDir, 'PG_VERSION'));
  const template = folder && isNew && !options.migrations ? templatePath(folder, migrations) : null;
  const loadDataDir = template ? await readTemplate(template) : undefined;
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { vector, pg_textsearch },
  });
  // A template holds every migration already; any newer one still runs here.
  await migrate(db, migrations);
  // Written from an in-memory database only: its tarball names no folder of this machine.
  if (template && !loadDataDir && !options.dataDir) await writeTemplate(db, template);
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
