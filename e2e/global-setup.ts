/**
 * Builds the bundles once before the suite when the renderer is missing or older than its sources,
 * and writes the database template every test's backend starts from when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureDbTemplate } from '../src-main/testing/db-template-setup';
import { bundlesAreStale } from './support/build-state';

export default async function globalSetup(): Promise<void> {
  const root = process.cwd();
  // CAIRN_DB_TEMPLATES is set by playwright.config.ts. `npm test` has vitest write the template
  // first; a spec run alone would otherwise have every backend run initdb (~7 CPU s each, against ~1
  // from the template) (src-main/testing/db-template-setup.ts).
  await ensureDbTemplate(process.env.CAIRN_DB_TEMPLATES);
  if (!bundlesAreStale(root)) return;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: root, stdio: 'inherit' },
  );
}
