/**
 * Writes the migrated database template (core/db/database-template.ts) before a test suite starts,
 * when it is missing. Only an in-memory database writes it, so without this every database opened
 * on disk before the suite's first in-memory one (the slowest files, which run first, mostly open
 * on disk) ran initdb: ~7 CPU s each, against ~1 from the template. The template is unpacked here
 * too, so the suite's first files do not each unpack it at once.
 */
import { existsSync } from 'node:fs';
import { openDatabase } from '../core/db/database';
import { templatePath, unpackedPath } from '../core/db/database-template';
import { MIGRATIONS } from '../core/db/migrations/index';

/** `folder` is the suite's CAIRN_DB_TEMPLATES; empty or undefined means no templates, nothing to do. */
export async function ensureDbTemplate(folder: string | undefined): Promise<void> {
  if (!folder) return;
  const template = templatePath(folder, MIGRATIONS);
  // The first in-memory open writes the template, the next one unpacks it.
  if (!existsSync(template)) await (await openDatabase({ templates: folder })).close();
  if (!existsSync(unpackedPath(template))) await (await openDatabase({ templates: folder })).close();
}
