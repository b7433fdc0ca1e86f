/** Runs the folder scenario's steps (each in a fresh worker process) and prints their figures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FolderScenarioResult, IdleWatchResult } from './folder-scenario';
import type { LargeFileResult } from './folder-large';
import { markdownTable, num } from './report';

export interface FolderBenchResult {
  sync: FolderScenarioResult;
  largeFiles: LargeFileResult[];
  idle: IdleWatchResult;
}

/** `runWorker` runs bench-worker.ts with the given arguments in a fresh process and waits for it. */
export function runFolderBench(
  runWorker: (args: string[]) => void,
  options: { workDir: string; seed: number },
): FolderBenchResult {
  const step = <T>(name: string, args: string[]): T => {
    const out = join(options.workDir, `${name}.json`);
    runWorker([
      name.replace(/-(markdown|csv|pdf|xlsx)$/, ''),
      '--work-dir',
      join(options.workDir, name),
      '--out',
      out,
      '--seed',
      String(options.seed),
      ...args,
    ]);
    return JSON.parse(readFileSync(out, 'utf8')) as T;
  };
  return {
    sync: step<FolderScenarioResult>('folder', []),
    largeFiles: [
      step<LargeFileResult>('folder-large-markdown', ['--kind', 'markdown']),
      step<LargeFileResult>('folder-large-csv', ['--kind', 'csv']),
      step<LargeFileResult>('folder-large-pdf', ['--kind', 'pdf']),
      // A workbook is zipped: 7 MB of it holds ~18 M characters of tables, near the 20 Mi-character
      // text limit (a 20 MB workbook holds ~50 M and is skipped, naming the limit).
      step<LargeFileResult>('folder-large-xlsx', ['--kind', 'xlsx', '--bytes', '7000000']),
    ],
    idle: step<IdleWatchResult>('folder-idle', []),
  };
}

export function printFolderReport(result: FolderBenchResult): void {
  const { sync, largeFiles, idle } = result;
  console.log(
    `\nFolder: ${sync.markdownFiles} Markdown files + ${sync.pdfFiles} PDFs (${sync.pdfPages} pages), watched`,
  );
  console.log(
    markdownTable(
      ['measure', 'value'],
      [
        [
          'full sync',
          `${num(sync.fullSync.wallMs / 1000, 1)} s wall, ${num(sync.fullSync.cpuMs / 1000, 1)} s CPU, ${sync.fullSync.documents} documents, ${sync.fullSync.chunks} chunks`,
        ],
        ['PDF reader (serial, this thread)', `${num(sync.pdfReader.pagesPerSecond)} pages/s`],
        [
          'PDF reader (serial, extract worker)',
          `${num(sync.pdfReaderWorker.pagesPerSecond)} pages/s after a start of ${num(sync.pdfReaderWorker.startAndFirstFileMs)} ms`,
        ],
        ['restart catch-up, nothing changed', `${num(sync.catchUpUnchanged.wallMs / 1000, 1)} s`],
        [
          `saved file → searchable (n=${sync.watchLatencyMs.n})`,
          `p50 ${num(sync.watchLatencyMs.p50)} ms, p95 ${num(sync.watchLatencyMs.p95)} ms`,
        ],
        [
          `burst of ${sync.burst.files} files`,
          `${sync.burst.syncRuns} sync run(s), all searchable after ${num(sync.burst.wallMs / 1000, 1)} s`,
        ],
        ...largeFiles.map((large) => [
          `one ${num(large.fileMb, 1)} MB ${large.kind} file`,
          `+${num(large.addedMb)} MB RSS (from ${num(large.rssBeforeMb)} to ${num(large.peakRssMb)}), ${large.chunks} chunks, ${num(large.wallMs / 1000, 1)} s`,
        ]),
        [
          `idle watcher, ${idle.files} files in ${idle.folders} folders`,
          `${num(idle.cpuPercentWatching, 2)} % of a core (${num(idle.cpuPercentBaseline, 2)} % before watching; ${idle.idleSeconds} s window)`,
        ],
      ],
    ),
  );
}
