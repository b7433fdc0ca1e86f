/**
 * A new database can start from a template instead of from nothing: PGlite runs initdb inside
 * WebAssembly for every new database (~6 s of CPU here, most of what opening costs), then every
 * migration. A template is a tarball of a freshly migrated database (PGlite's dumpDataDir), kept in
 * a folder under a name that fingerprints what made it (PGlite's and its extensions' versions, the
 * migrations' SQL), so a template is used only by the code that would have built the same database.
 * The test suites set CAIRN_DB_TEMPLATES (vitest.config.ts, playwright.config.ts): the first
 * process to open a database writes the template, the others load it.
 *
 * A database on disk starts from the template unpacked once into a folder beside it, whose files are
 * copied in: PGlite's loadDataDir writes the 40 MB tarball through its WebAssembly file system, three
 * quarters of the ~2 CPU s a new database on disk cost with it (docs/decisions/test-speed.md).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Migration } from './migrations/index';

const PACKAGES = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  '@electric-sql/pglite-pg_textsearch',
];

/** The version in a package's package.json (not in its exports), found from its entry point. */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where the template for these migrations lives in `folder`. */
export function templatePath(folder: string, migrations: Migration[]): string {
  const hash = createHash('sha256');
  for (const name of PACKAGES) hash.update(`${name}@${packageVersion(name)}\n`);
  for (const migration of migrations) hash.update(`${migration.version}\n${migration.sql}\n`);
  return join(folder, `cairn-db-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * The template's bytes for PGlite's loadDataDir, or undefined when it has not been written yet.
 * Read whole at once: a file-backed Blob would fail if another process renamed its own template
 * over this one meanwhile.
 */
export async function readTemplate(path: string): Promise<Blob | undefined> {
  return existsSync(path) ? new Blob([await readFile(path)]) : undefined;
}

/**
 * Writes a freshly migrated database as the template, unless another process has; a rename makes
 * it appear whole or not at all.
 */
export async function writeTemplate(db: PGlite, path: string): Promise<void> {
  if (existsSync(path)) return;
  const dump = await db.dumpDataDir('none');
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
}

/** PGlite started on `dataDir` from the template's bytes (database.ts's own options), to be closed. */
export type StartFromTemplate = (dataDir: string, loadDataDir: Blob) => Promise<PGlite>;

/**
 * Fills the new database folder `dataDir` with the template's files; false (nothing copied) when the
 * template has not been written yet. The template is unpacked once, beside it, by starting PGlite on
 * a temporary folder from the tarball and closing it; a rename makes the folder appear whole or not
 * at all (a process that loses the race to another keeps the other's).
 */
export async function copyTemplateInto(
  template: string,
  dataDir: string,
  start: StartFromTemplate,
): Promise<boolean> {
  const unpacked = template.replace(/\.tar$/, '.unpacked');
  if (!existsSync(unpacked)) {
    const bytes = await readTemplate(template);
    if (!bytes) return false;
    const partial = `${unpacked}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    await (await start(partial, bytes)).close();
    try {
      renameSync(partial, unpacked);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(unpacked)) throw error;
    }
  }
  cpSync(unpacked, dataDir, { recursive: true });
  return true;
}
