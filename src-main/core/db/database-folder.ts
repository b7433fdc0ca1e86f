/**
 * What is in a database folder before PGlite is let near it. PGlite runs initdb over any folder
 * without PG_VERSION, whatever else it holds (its own check: dist `PG_VERSION` exists → "found DB,
 * resuming", else "no db in filesystem, running initdb"), so a folder that lost that one file came
 * back as an empty Cairn with every connection gone. Cairn decides instead: a folder is created only
 * when it is absent or empty, or when it was left half-made by Cairn's own interrupted creation
 * (a marker beside it says so); a folder that holds anything else is refused, untouched.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CairnError } from '../errors';

export type DatabaseFolderState =
  /** Absent or empty: a new database is created here. */
  | { kind: 'new' }
  /** Left by a creation that was interrupted (the marker is still there): nothing of the user's yet. */
  | { kind: 'unfinished' }
  /** Holds a database (PG_VERSION): PGlite opens it. */
  | { kind: 'existing' }
  /** Holds files but no database Cairn knows how to open. */
  | { kind: 'damaged'; reason: string };

/** Files a desktop puts in any folder it shows; they do not make a folder "hold data". */
const DESKTOP_CLUTTER = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/**
 * Beside the folder (never inside: initdb refuses a folder that is not empty) while a new database
 * is being created; removed once every migration ran.
 */
export function creationMarkerPath(folder: string): string {
  return join(dirname(folder), `${basename(folder)}.creating`);
}

export function inspectDatabaseFolder(folder: string): DatabaseFolderState {
  if (!existsSync(folder)) return { kind: 'new' };
  const entries = readdirSync(folder).filter((name) => !DESKTOP_CLUTTER.has(name));
  if (entries.length === 0) return { kind: 'new' };
  if (existsSync(creationMarkerPath(folder))) return { kind: 'unfinished' };
  if (entries.includes('PG_VERSION')) return { kind: 'existing' };
  return { kind: 'damaged', reason: 'PG_VERSION is missing' };
}

/** Marks the folder as being created, emptying what an interrupted creation left there. */
export function beginCreation(folder: string, state: DatabaseFolderState): void {
  writeFileSync(creationMarkerPath(folder), `${new Date().toISOString()}\n`, { mode: 0o600 });
  if (state.kind === 'unfinished')
    for (const name of readdirSync(folder)) rmSync(join(folder, name), { recursive: true, force: true });
}

export function finishCreation(folder: string): void {
  rmSync(creationMarkerPath(folder), { force: true });
}

/**
 * The refusal: names the folder and why, says nothing was changed, and how to go on. The CLI prints
 * it as it is; the app shows its own screen with the same two choices (details.folder, details.reason).
 */
export function damagedDatabaseError(folder: string, reason: string, cause?: unknown): CairnError {
  return new CairnError(
    'DATA_DIR_DAMAGED',
    `Cairn did not open its database at ${folder}: ${reason}. Nothing in it was changed. ` +
      'To rebuild the index from your sources, keeping connections and their secrets: cairn recover --rebuild. ' +
      'To start empty: cairn recover --fresh. Either way the damaged folder is moved aside and kept.',
    { details: { folder, reason }, ...(cause === undefined ? {} : { cause }) },
  );
}
