/**
 * A new database can start from a template instead of from nothing: PGlite runs initdb inside
 * WebAssembly for every new database (~6 s of CPU here, most of what opening costs), then every
 * migration. A template is a tarball of a freshly migrated database (PGlite's dumpDataDir), kept in
 * a folder under a name that fingerprints what made it (PGlite's and its extensions' versions, the
 * migrations' SQL), so a template is used only by the code that would have built the same database.
 * The test suites set CAIRN_DB_TEMPLATES (vitest.config.ts, playwright.config.ts): the first
 * process to open a database writes the template, the others load it.
 *
 * A new database starts from the template unpacked once into a folder beside it: PGlite's
 * loadDataDir writes the 40 MB tarball through its WebAssembly file system, untarring it and looking
 * up every parent folder of each of its ~1,000 files again, which was three quarters of the ~2 CPU s a
 * new database on disk cost, and most of the ~1.3 an in-memory one did (docs/decisions/test-speed.md).
 * On disk the folder's files are copied natively; in memory they are read once per process and
 * written into each new database's in-memory file system.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import { INITDB_PARAMS, UNUSED_DATABASES } from './database-settings';
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
  hash.update(`initdb ${INITDB_PARAMS.join(' ')}; dropped ${UNUSED_DATABASES.join(' ')}\n`);
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

/** Where `template`'s unpacked folder lives (beside it). */
export function unpackedPath(template: string): string {
  return template.replace(/\.tar$/, '.unpacked');
}

/**
 * The template unpacked into a folder beside it, or null when the template has not been written
 * yet. It is unpacked once, by starting PGlite on a temporary folder from the tarball and closing
 * it; a rename makes the folder appear whole or not at all (a process that loses the race to another
 * keeps the other's).
 */
export async function unpackTemplate(template: string, start: StartFromTemplate): Promise<string | null> {
  const unpacked = unpackedPath(template);
  if (existsSync(unpacked)) return unpacked;
  const bytes = await readTemplate(template);
  if (!bytes) return null;
  const partial = `${unpacked}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  await (await start(partial, bytes)).close();
  try {
    renameSync(partial, unpacked);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(unpacked)) throw error;
  }
  return unpacked;
}

/**
 * Fills the new database folder `dataDir` with the template's files; false (nothing copied) when the
 * template has not been written yet.
 */
export async function copyTemplateInto(
  template: string,
  dataDir: string,
  start: StartFromTemplate,
): Promise<boolean> {
  const unpacked = await unpackTemplate(template, start);
  if (!unpacked) return false;
  cpSync(unpacked, dataDir, { recursive: true });
  return true;
}

/** One folder or file of an unpacked template, by its path under the data directory. */
interface TemplateEntry {
  path: string;
  /** The file's bytes; undefined for a folder. Shared by every database of the process: never handed over. */
  data?: Uint8Array;
  mtimeMs: number;
}

/** Each unpacked template's entries, read once per process (a folder before what it holds). */
const entriesRead = new Map<string, TemplateEntry[]>();

function templateEntries(unpacked: string): TemplateEntry[] {
  let entries = entriesRead.get(unpacked);
  if (entries) return entries;
  entries = [];
  const walk = (relative: string) => {
    for (const item of readdirSync(join(unpacked, relative), { withFileTypes: true })) {
      const path = `${relative}/${item.name}`;
      const { mtimeMs } = statSync(join(unpacked, path));
      if (item.isDirectory()) {
        entries!.push({ path, mtimeMs });
        walk(path);
      } else if (item.isFile())
        // A plain Uint8Array, not the Buffer read: the file system copies a file's first write with
        // slice(), which on a Buffer would share its bytes.
        entries!.push({ path, data: new Uint8Array(readFileSync(join(unpacked, path))), mtimeMs });
    }
  };
  walk('');
  entriesRead.set(unpacked, entries);
  return entries;
}

/**
 * PGlite's in-memory file system, holding a copy of the template's files before Postgres starts
 * (PGlite then finds a database and starts it instead of running initdb), as loadDataDir would have
 * left it: folders, files and their modification times.
 */
class TemplateMemoryFS extends MemoryFS {
  constructor(private readonly entries: TemplateEntry[]) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const fs = this.pg!.Module.FS;
    const root = PGlite.paths.PGDATA;
    if (!fs.analyzePath(root).exists) fs.mkdirTree(root);
    for (const entry of this.entries) {
      const path = root + entry.path;
      if (!entry.data) fs.mkdir(path);
      else {
        // Copied (not canOwn): the bytes are shared with every later database of this process.
        fs.writeFile(path, entry.data);
        fs.utime(path, entry.mtimeMs, entry.mtimeMs);
      }
    }
    await super.initialSyncFs();
  }
}

/**
 * An in-memory file system for PGlite that starts as a copy of the template, or undefined when the
 * template has not been written yet.
 */
export async function templateMemoryFs(
  template: string,
  start: StartFromTemplate,
): Promise<MemoryFS | undefined> {
  const unpacked = await unpackTemplate(template, start);
  return unpacked ? new TemplateMemoryFS(templateEntries(unpacked)) : undefined;
}
