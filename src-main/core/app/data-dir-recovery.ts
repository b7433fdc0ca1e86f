/**
 * The two ways on from a database Cairn refused to open (db/database-folder.ts): both move the
 * damaged folder aside, never delete it, into `damaged-<time>/` in the data directory. "rebuild"
 * keeps the manifest, so the next open creates a database with every connection (same ids, so
 * their secrets are found) and syncs rebuild the index from the sources; "fresh" moves the manifest
 * aside too, so Cairn starts empty. The caller holds the data directory's lock.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RecoveryAction, RecoveryReport } from '@shared/models';
import { openDatabaseFolder } from '../db/database';
import { creationMarkerPath, inspectDatabaseFolder } from '../db/database-folder';
import { CairnError } from '../errors';
import { dataDirLayout } from './data-dir';
import { readManifest } from './data-manifest';
import { PRIVATE_DIR_MODE } from './private-data-dir';

export async function setAsideDamagedDatabase(root: string, action: RecoveryAction): Promise<RecoveryReport> {
  const layout = dataDirLayout(root);
  if (action !== 'rebuild' && action !== 'fresh')
    throw new CairnError('INVALID_ARGUMENT', `Recovery is "rebuild" or "fresh", not "${String(action)}".`);
  await confirmDamaged(layout.database);
  const manifest = readManifest(layout.manifest);
  if (action === 'rebuild' && !manifest)
    throw new CairnError(
      'NOT_FOUND',
      `There is no readable manifest.json in ${root}, so the connections cannot be restored: ` +
        'cairn recover --fresh starts empty (the damaged folder is kept).',
    );
  const aside = join(root, `damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(aside, { mode: PRIVATE_DIR_MODE });
  renameSync(layout.database, join(aside, 'db'));
  rmSync(creationMarkerPath(layout.database), { force: true });
  if (existsSync(layout.manifest)) {
    // The aside folder keeps the connections it belonged to; "fresh" takes them out of the way.
    if (action === 'fresh') renameSync(layout.manifest, join(aside, 'manifest.json'));
    else copyFileSync(layout.manifest, join(aside, 'manifest.json'));
  }
  return {
    action,
    movedTo: aside,
    connections: action === 'rebuild' ? (manifest?.connections.length ?? 0) : 0,
  };
}

/** Throws unless the folder is one Cairn refuses: a healthy database is never moved aside. */
async function confirmDamaged(folder: string): Promise<void> {
  const state = inspectDatabaseFolder(folder);
  if (state.kind === 'damaged') return;
  if (state.kind === 'existing') {
    try {
      // Changes nothing in a folder PGlite cannot start on (the refusal test checks it).
      const opened = await openDatabaseFolder({ dataDir: folder, templates: null });
      await opened.db.close();
    } catch (error) {
      if (error instanceof CairnError && error.code === 'DATA_DIR_DAMAGED') return;
      throw error;
    }
  }
  throw new CairnError('INVALID_ARGUMENT', `The database at ${folder} opens: there is nothing to recover.`);
}
