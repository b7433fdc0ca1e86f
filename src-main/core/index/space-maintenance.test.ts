/**
 * Space is given back (issue #25 item 7), measured as the disk counts it (data-dir-size.ts), no
 * timings: 12 change cycles (the count; every document changed in each) leave the database
 * (tables and indexes, with the catalogs) within 1.3x its size after the first sync and its log at
 * one segment, and removing a connection returns most of the room its documents took. Maintenance is
 * run as the app runs it once idle.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { dataDirLayout } from '../app/data-dir';
import { diskUsage } from '../app/data-dir-size';
import { silentLogger } from '../logging/logger';

const DOCUMENTS = 120;
const CYCLES = 12;
let scratch: string;
let notes: string;
let cairn: CairnInternals;

function writeNotes(version: number): void {
  for (let i = 0; i < DOCUMENTS; i++)
    writeFileSync(
      join(notes, `d${i}.md`),
      `# Doc ${i} v${version}\n\n` +
        Array.from(
          { length: 8 },
          (_, j) =>
            `## Part ${j}\n\n` +
            Array.from(
              { length: 6 },
              (_, k) =>
                `Sentence ${k} of part ${j} in document ${i}, version ${version}, on topic ${(i * 7 + j) % 97}.`,
            ).join(' '),
        ).join('\n\n'),
    );
}

/** The database on disk: its tables and indexes (with the catalogs) apart from the write-ahead log. */
async function databaseBytes(): Promise<{ tables: number; log: number }> {
  const folder = dataDirLayout(cairn.dataDir!).database;
  const [all, log] = await Promise.all([diskUsage(folder), diskUsage(join(folder, 'pg_wal'))]);
  return { tables: all - log, log };
}

/**
 * One 16 MB segment and its status files: the checkpoint removes the segments it no longer needs
 * (wal_recycle off, db/database.ts); recycled, two stayed here and five after a 1,298-document sync.
 */
const LOG_AFTER_MAINTENANCE = 17 * 1024 * 1024;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cairn-space-'));
  notes = join(scratch, 'notes');
  mkdirSync(notes);
  writeNotes(0);
  cairn = await createCairn({
    dataDir: join(scratch, 'data'),
    env: {},
    scheduler: false,
    logger: silentLogger(),
  });
}, 240_000);

afterAll(async () => {
  await cairn?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe('space maintenance', () => {
  it(
    'keeps the database within 1.3x its first size over change cycles and its log at one segment, and removing a connection gives its room back',
    { timeout: 900_000 },
    async () => {
      const maintenance = cairn.maintenance!;
      await maintenance.runNow();
      const empty = await databaseBytes();
      const added = await cairn.api.connections.add({
        platform: 'folder',
        name: 'Notes',
        mode: 'rag',
        config: { path: notes },
        secrets: {},
      });
      if (!added.ok) throw new Error(added.error.message);
      const connectionId = added.value.id;
      await cairn.api.sync.start({ connectionId });
      await cairn.whenIdle();
      await maintenance.runNow();
      const built = await databaseBytes();

      const vacuumed = new Set<string>();
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        writeNotes(cycle);
        await cairn.api.sync.start({ connectionId });
        await cairn.whenIdle();
        const report = await maintenance.runNow();
        for (const entry of report.vacuumed) vacuumed.add(entry.table);
      }
      const afterCycles = await databaseBytes();

      const removed = await cairn.api.connections.remove({ id: connectionId });
      expect(removed.ok).toBe(true);
      await cairn.whenIdle();
      const beforeMaintenance = await databaseBytes();
      await maintenance.runNow();
      const afterRemoval = await databaseBytes();

      const sizes = { empty, built, afterCycles, beforeMaintenance, afterRemoval, vacuumed: [...vacuumed] };
      const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
      console.info(
        `tables: built ${mb(built.tables)} MB, after ${CYCLES} cycles ${mb(afterCycles.tables)} MB (${(afterCycles.tables / built.tables).toFixed(2)}x); log ${mb(afterCycles.log)} MB`,
      );
      // What the connection had grown the tables by at their largest.
      const connectionBytes = afterCycles.tables - empty.tables;
      expect(
        {
          grew: built.tables > empty.tables,
          vacuumedChunksAndDocuments: vacuumed.has('chunks') && vacuumed.has('documents'),
          withinBound: afterCycles.tables <= 1.3 * built.tables,
          logBounded: afterCycles.log <= LOG_AFTER_MAINTENANCE && afterRemoval.log <= LOG_AFTER_MAINTENANCE,
          returned: beforeMaintenance.tables - afterRemoval.tables >= 0.5 * connectionBytes,
        },
        JSON.stringify(sizes),
      ).toEqual({
        grew: true,
        vacuumedChunksAndDocuments: true,
        withinBound: true,
        logBounded: true,
        returned: true,
      });
    },
  );
});
