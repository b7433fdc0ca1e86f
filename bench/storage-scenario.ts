/**
 * `bench-worker.ts storage --corpus <collection dir> --data-dir D --out F`: the data directory a
 * user gets for a real documentation corpus with default settings (issue #26 item 4). The
 * collection's records (corpus.jsonl of a real-documents set: Markdown files verbatim) are written
 * out as files, added as a folder connection through the app's own API and synced, as
 * `cairn add-folder` + `cairn sync` would; then the directory's size is read against the text's,
 * with a breakdown (storage-breakdown.ts). The app is closed and the directory measured again (what
 * stays on disk). CAIRN_EMBED_* in the environment configures a semantic model instead.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createCairn } from '../src-main/core/app/create-cairn';
import { MemorySecretStore } from '../src-main/core/secrets/secret-store';
import { unwrap } from '../src-main/testing/integration-kit';
import { directorySize, peakRssMb } from './process-stats';
import { storageBreakdown, type StorageBreakdown } from './storage-breakdown';

export interface StorageScenarioResult {
  corpus: string;
  files: number;
  /** UTF-8 bytes of the files indexed. */
  textBytes: number;
  documents: number;
  chunks: number;
  syncWallMs: number;
  syncCpuMs: number;
  /** While open, after the sync (and the semantic index, if any) finished. */
  open: StorageBreakdown;
  /**
   * After the space maintenance the app runs once idle after writes (index/space-maintenance.ts:
   * VACUUM where rows died, then a checkpoint that lets go of the write-ahead log).
   */
  maintained: StorageBreakdown;
  /** That maintenance run: wall and CPU time, and the indexes it rebuilt. */
  maintenanceWallMs: number;
  maintenanceCpuMs: number;
  rebuilt: string[];
  /** Bytes on disk after the app closed. */
  closedBytes: number;
  /** Of those, the database folder (db/) alone, without the space reserve beside it. */
  closedDatabaseBytes: number;
  peakRssMb: number;
}

export async function runStorageScenario(options: {
  corpus: string;
  dataDir: string;
  workDir: string;
}): Promise<StorageScenarioResult> {
  const folder = join(options.workDir, 'storage-corpus');
  rmSync(folder, { recursive: true, force: true });
  rmSync(options.dataDir, { recursive: true, force: true });
  let textBytes = 0;
  let files = 0;
  for (const line of readFileSync(join(options.corpus, 'corpus.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { id: string; text: string };
    const path = join(folder, record.id);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, record.text);
    textBytes += Buffer.byteLength(record.text);
    files += 1;
  }
  const cairn = await createCairn({
    dataDir: options.dataDir,
    scheduler: false,
    watchFolders: false,
    secretStore: new MemorySecretStore(),
  });
  let result: Omit<StorageScenarioResult, 'closedBytes' | 'closedDatabaseBytes' | 'peakRssMb'>;
  try {
    const connection = unwrap(
      await cairn.api.connections.add({
        platform: 'folder',
        name: 'docs',
        mode: 'rag',
        config: { path: folder },
        secrets: {},
      }),
    );
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await cairn.whenIdle();
    const syncWallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const counts = await cairn.db.query<{ documents: number; chunks: number }>(
      'SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM chunks)::int AS chunks',
    );
    result = {
      corpus: options.corpus,
      files,
      textBytes,
      documents: counts.rows[0]?.documents ?? 0,
      chunks: counts.rows[0]?.chunks ?? 0,
      syncWallMs,
      syncCpuMs: (cpu.user + cpu.system) / 1000,
      open: await storageBreakdown(cairn.db, join(options.dataDir, 'db')),
      ...(await (async () => {
        const before = process.cpuUsage();
        const started = performance.now();
        const report = await cairn.maintenance?.runNow();
        const used = process.cpuUsage(before);
        return {
          maintenanceWallMs: performance.now() - started,
          maintenanceCpuMs: (used.user + used.system) / 1000,
          rebuilt: report?.rebuilt.map((entry) => entry.index) ?? [],
          maintained: await storageBreakdown(cairn.db, join(options.dataDir, 'db')),
        };
      })()),
    };
  } finally {
    await cairn.dispose();
  }
  return {
    ...result,
    closedBytes: directorySize(options.dataDir),
    closedDatabaseBytes: directorySize(join(options.dataDir, 'db')),
    peakRssMb: peakRssMb(),
  };
}
