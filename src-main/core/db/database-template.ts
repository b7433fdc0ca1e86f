/**
 * A new database can start from a template instead of from nothing: PGlite runs initdb inside
 * WebAssembly for every new database (~6 s of CPU here, most of what opening costs), then every
 * migration. A template is a tarball of a freshly migrated database (PGlite's dumpDataDir), kept in
 * a folder under a name that fingerprints what made it (PGlite's and its extensions' versions, the
 * migrations' SQL), so a template is used only by the code that would have built the same database.
 * The test suites set CAIRN_DB_TEMPLATES (vitest.config.ts, playwright.config.ts): the first
 * process to open a database writes the template, the others load it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
