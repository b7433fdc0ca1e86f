/** Vitest's global setup (vitest.config.ts): the database template before the first test file. */
import { resolve } from 'node:path';
import { ensureDbTemplate } from './db-template-setup';

export default async function setup(): Promise<void> {
  // The same folder vitest.config.ts gives the test files (test.env reaches them, not this process).
  await ensureDbTemplate(
    process.env.CAIRN_DB_TEMPLATES ?? resolve(import.meta.dirname, '..', '..', '.cache', 'db-templates'),
  );
}
