/**
 * Builds the bundles once before the suite when the renderer is missing or older than its sources,
 * and writes the database template every test's backend starts from when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src-main/core/db/database';
import { templatePath } from '../src-main/core/db/database-template';
import { MIGRATIONS } from '../src-main/core/db/migrations/index';
import { bundlesAreStale } from './support/build-state';

export default async function globalSetup(): Promise<void> {
  const root = process.cwd();
  // CAIRN_DB_TEMPLATES is set by playwright.config.ts. `npm test` has vitest write the template
  // first; a spec run alone would otherwise have every backend run initdb (~7 CPU s each, against ~1
  // from the template): one in-memory database writes it (database-template.ts).
  const templates = process.env.CAIRN_DB_TEMPLATES;
  if (templates && !existsSync(templatePath(templates, MIGRATIONS))) await (await openDatabase()).close();
  if (!bundlesAreStale(root)) return;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: root, stdio: 'inherit' },
  );
}
