import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The `@shared/*` alias of tsconfig.base.json.
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src-shared') } },
  test: {
    include: [
      'src-main/**/*.test.ts',
      'src-shared/**/*.test.ts',
      'src-renderer/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // New databases start from a migrated template instead of running initdb and every migration
    // (src-main/core/db/database-template.ts); CAIRN_DB_TEMPLATES= (empty) turns that off.
    env: {
      CAIRN_DB_TEMPLATES:
        process.env.CAIRN_DB_TEMPLATES ?? resolve(import.meta.dirname, '.cache', 'db-templates'),
    },
  },
});
