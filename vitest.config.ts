import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Vitest's own default (cores - 1), but at least 2 while the 1-minute load average is under 2 per core. */
function testWorkers(): number {
  const cores = availableParallelism();
  return loadavg()[0] < 2 * cores ? Math.max(2, cores - 1) : Math.max(1, cores - 1);
}

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
    // Two files at a time on 2 cores (vitest's default is cores - 1 = 1 there) when the machine has a
    // core to spare: one worker left a core idle for ~45 % of a quiet run while files wait on child
    // processes, servers and sockets. Past 2 runnable processes per core (other people's work) a
    // second worker only adds contention, so one. CAIRN_TEST_WORKERS=N decides (docs/decisions/test-speed.md).
    maxWorkers: Number(process.env.CAIRN_TEST_WORKERS) || testWorkers(),
    // New databases start from a migrated template instead of running initdb and every migration
    // (src-main/core/db/database-template.ts); CAIRN_DB_TEMPLATES= (empty) turns that off. The
    // global setup writes it before the first file when it is missing.
    globalSetup: ['src-main/testing/vitest-global-setup.ts'],
    env: {
      CAIRN_DB_TEMPLATES:
        process.env.CAIRN_DB_TEMPLATES ?? resolve(import.meta.dirname, '.cache', 'db-templates'),
    },
  },
});
