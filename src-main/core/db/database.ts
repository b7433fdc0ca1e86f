/**
 * The database has one door (STYLE.md §5): this module opens PGlite with its extensions and runs
 * the numbered migrations. Everything else receives the open handle.
 */
import { mkdirSync } from 'node:fs';
import { PGlite, type MemoryFS } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import {
  beginCreation,
  damagedDatabaseError,
  finishCreation,
  inspectDatabaseFolder,
} from './database-folder';
import { watchDatabase } from './database-health';
import { INITDB_PARAMS, UNUSED_DATABASES, WAL_LIMITS } from './database-settings';
import { copyTemplateInto, templateMemoryFs, templatePath, writeTemplate } from './database-template';
import { DATABASE_RESERVE_BYTES, DiskSpace, diskFullError, megabytes } from './disk-space';
import { keepSpaceReserve, releaseSpaceReserve } from './space-reserve';
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
  /**
   * Leave the template databases a database made by an older version still holds (a one-shot read
   * only opens and reads): the next open that does not ask this drops them. @default false
   */
  keepUnusedDatabases?: boolean;
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Db> {
  return (await openDatabaseFolder(options)).db;
}

export interface OpenedDatabase {
  db: Db;
  /** True when this call created the database (an on-disk folder that was absent or empty). */
  created: boolean;
}

/**
 * Opens (or creates) the database. An on-disk folder that holds files but no database, or one
 * PGlite cannot start on, is refused with DATA_DIR_DAMAGED and left as it was (database-folder.ts).
 */
export async function openDatabaseFolder(
  options: OpenDatabaseOptions & {
    /**
     * Runs once on a database this call created, before the creation counts as finished: a crash
     * before it ends leaves a folder that the next open creates again (the connections restored
     * from the manifest, core/app/data-manifest.ts).
     */
    seed?: (db: Db) => Promise<void>;
  } = {},
): Promise<OpenedDatabase> {
  const migrations = options.migrations ?? MIGRATIONS;
  const folder = options.templates === undefined ? process.env.CAIRN_DB_TEMPLATES : options.templates;
  const dataDir = options.dataDir;
  const state = dataDir ? inspectDatabaseFolder(dataDir) : ({ kind: 'new' } as const);
  if (state.kind === 'damaged') throw damagedDatabaseError(dataDir!, state.reason);
  const isNew = state.kind !== 'existing';
  const space = dataDir ? new DiskSpace(dataDir) : null;
  if (dataDir) {
    // Below the reserve the database may need the reserve file's room to start (its recovery writes
    // a new log segment): give it back first.
    if (space!.low()) releaseSpaceReserve(dataDir);
    mkdirSync(dataDir, { recursive: true });
    if (isNew) beginCreation(dataDir, state);
  }
  const template = folder && isNew && !options.migrations ? templatePath(folder, migrations) : null;
  // On disk, the template's files are copied in; in memory, PGlite starts on a copy of them
  // (database-template.ts).
  if (template && dataDir) await copyTemplateInto(template, dataDir, startPglite);
  const memoryFs = template && !dataDir ? await templateMemoryFs(template, startPglite) : undefined;
  // Postgres says why it would not start only on stderr (e.g. "FATAL: incorrect checksum in control
  // file"); PGlite's own error is "PGlite failed to initialize properly".
  const serverErrors: string[] = [];
  let db: Db;
  try {
    db = await startPglite(dataDir, undefined, serverErrors, memoryFs);
  } catch (error) {
    // A full disk is said as such (and is no reason to offer moving the database aside).
    if (space?.low())
      throw diskFullError(
        space.now(),
        `Cairn needs about ${megabytes(DATABASE_RESERVE_BYTES)} free to open its index. Nothing was changed: free some space and start Cairn again.`,
        { cause: error },
      );
    if (dataDir && !isNew) throw damagedDatabaseError(dataDir, startFailure(error, serverErrors), error);
    throw error;
  }
  watchDatabase(db, space);
  if (!options.keepUnusedDatabases) await dropUnusedDatabases(db);
  // A template holds every migration already; any newer one still runs here.
  await migrate(db, migrations);
  if (isNew) await options.seed?.(db);
  if (dataDir && isNew) finishCreation(dataDir);
  if (dataDir) keepSpaceReserve(dataDir, space!);
  // Written from an in-memory database only: its tarball names no folder of this machine.
  if (template && !memoryFs && !dataDir) await writeTemplate(db, template);
  return { db, created: isNew };
}

/** PGlite with Cairn's extensions and settings; FATAL and PANIC lines of the server go to `serverErrors`. */
function startPglite(
  dataDir?: string,
  loadDataDir?: Blob,
  serverErrors: string[] = [],
  fs?: MemoryFS,
): Promise<Db> {
  return PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(fs ? { fs } : {}),
    startParams: [...PGlite.defaultStartParams, ...WAL_LIMITS],
    initDbStartParams: INITDB_PARAMS,
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { vector, pg_textsearch },
    onStderr: (line) => {
      if (/\b(FATAL|PANIC):/.test(line)) serverErrors.push(line.replace(/^.*?\b(FATAL|PANIC):\s*/, ''));
      return false;
    },
  });
}

/**
 * Drops the template databases (database-settings.ts), on a database made before they were dropped
 * at creation too. One statement each, outside a transaction (DROP DATABASE refuses one); a crash in
 * between leaves the other for the next open.
 */
async function dropUnusedDatabases(db: Db): Promise<void> {
  const present = await db.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname = ANY($1::text[])',
    [UNUSED_DATABASES],
  );
  for (const { datname } of present.rows) {
    // A template database refuses to be dropped until it is no longer marked as one.
    await db.exec(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
    await db.exec(`DROP DATABASE ${datname}`);
  }
}

/**
 * The migrations on record. The table is looked up first and created only where it is missing:
 * `CREATE TABLE IF NOT EXISTS` on every open cost a DDL statement's catalogue work (~25 ms of CPU on
 * a fresh process) where a read of the catalogue answers the same.
 */
async function appliedVersions(db: Db): Promise<{ version: number }[]> {
  const found = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!found.rows[0]?.present)
    await db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  return (await db.query<{ version: number }>('SELECT version FROM schema_migrations')).rows;
}

/** Why PGlite would not start, in Postgres's words where it gave any. */
function startFailure(error: unknown, serverErrors: string[]): string {
  const said = serverErrors.at(-1);
  if (said) return `the database would not start (${said})`;
  return `the database would not start (${error instanceof Error ? error.message : String(error)})`;
}

export async function migrate(db: Db, migrations: Migration[]): Promise<number[]> {
  const applied = new Set((await appliedVersions(db)).map((r) => r.version));
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
