/**
 * Child-process side of the folder scenario of `npm run bench` (issue #10): a generated folder of
 * Markdown notes and ten-page PDFs, synced and then watched through the real composition root
 * (createCairn, the real @parcel/watcher, an on-disk data directory, the built-in embedder).
 * Three steps, each in its own process so its CPU and peak RSS are its own:
 * - `folder`: full sync time, the PDF reader's pages/s, an unchanged catch-up at restart, how long
 *   a saved file takes to become searchable while watched (p50/p95), and a burst of files.
 * - `folder-large`: the RSS one large file adds while it is indexed.
 * - `folder-idle`: the CPU an idle watched tree costs.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCairn, type CairnInternals } from '../src-main/core/app/create-cairn';
import { extractPdf } from '../src-main/core/connectors/folder/extract/extract-pdf';
import { ExtractorWorkers } from '../src-main/core/connectors/folder/extract/extractor-workers';
import { silentLogger } from '../src-main/core/logging/logger';
import { parcelWatch } from '../src-main/core/sync/folder-watcher';
import { pdfBytes } from '../src-main/testing/file-fixtures';
import { unwrap } from '../src-main/testing/integration-kit';
import { generateDocument } from './corpus';
import { summarizeLatencies, type LatencySummary } from './metrics';
import { peakRssMb } from './process-stats';

export interface FolderScenarioOptions {
  workDir: string;
  markdownFiles: number;
  pdfFiles: number;
  pdfPages: number;
  watchSamples: number;
  burstFiles: number;
  seed: number;
}

export interface FolderScenarioResult {
  markdownFiles: number;
  pdfFiles: number;
  pdfPages: number;
  fullSync: { wallMs: number; cpuMs: number; documents: number; chunks: number };
  pdfReader: { pages: number; wallMs: number; pagesPerSecond: number };
  /** The same files through the extract worker a sync reads them with. */
  pdfReaderWorker: { pages: number; wallMs: number; pagesPerSecond: number; startAndFirstFileMs: number };
  catchUpUnchanged: { wallMs: number };
  /** From the write of a file to its text being in the index, while watched. */
  watchLatencyMs: LatencySummary;
  burst: { files: number; syncRuns: number; wallMs: number };
  peakRssMb: number;
}

/** Ten lines of prose per page, each page naming its own number, so the text layer is real. */
function pdfPagesFor(file: number, pages: number): string[][] {
  return Array.from({ length: pages }, (_, page) =>
    Array.from(
      { length: 10 },
      (_, line) =>
        `Report ${file} page ${page + 1} line ${line + 1}: the quarterly budget review covers hangar ${file % 17} and supplier ${line}.`,
    ),
  );
}

async function openCairn(dataDir: string): Promise<CairnInternals> {
  return createCairn({ dataDir, env: {}, scheduler: false, watchFolders: true, logger: silentLogger() });
}

async function count(cairn: CairnInternals, sql: string, params: unknown[]): Promise<number> {
  return (await cairn.db.query<{ n: number }>(sql, params)).rows[0]!.n;
}

/** Polls (every 25 ms) until the query's count reaches `want`; returns the time it took. */
async function until(
  cairn: CairnInternals,
  sql: string,
  params: unknown[],
  want: number,
  started: number,
): Promise<number> {
  const deadline = started + 600_000;
  for (;;) {
    if ((await count(cairn, sql, params)) >= want) return performance.now() - started;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${want} rows of: ${sql}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function runFolderScenario(options: FolderScenarioOptions): Promise<FolderScenarioResult> {
  const notes = join(options.workDir, 'notes');
  const dataDir = join(options.workDir, 'data');
  await rm(options.workDir, { recursive: true, force: true });
  await mkdir(join(notes, 'pdf'), { recursive: true });
  for (let i = 0; i < options.markdownFiles; i++) {
    const folder = join(notes, `topic-${i % 20}`);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `note-${i}.md`), generateDocument(i, { seed: options.seed }).markdown);
  }
  for (let i = 0; i < options.pdfFiles; i++)
    await writeFile(join(notes, 'pdf', `report-${i}.pdf`), pdfBytes(pdfPagesFor(i, options.pdfPages)));

  // The reader alone, serially: pages per second of text-layer extraction, on this thread and
  // through the extract worker a sync uses (one worker reused, pages posted back one by one).
  const readAll = async (workers: ExtractorWorkers | null) => {
    const started = performance.now();
    let pages = 0;
    for (let i = 0; i < options.pdfFiles; i++) {
      const path = join(notes, 'pdf', `report-${i}.pdf`);
      const context = { externalId: `pdf/report-${i}.pdf`, path };
      const bytes = await readFile(path);
      const extracted = workers
        ? await workers.extract('pdf', bytes, context)
        : await extractPdf(bytes, context);
      pages += extracted.parts?.length ?? 0;
    }
    return { pages, wallMs: performance.now() - started };
  };
  const inProcess = await readAll(null);
  // The worker's start (a thread, and from source tsx compiling its modules) is paid once per
  // sync that reads a PDF: measured apart, then the reader's steady pace.
  const workers = new ExtractorWorkers();
  const startStarted = performance.now();
  const first = join(notes, 'pdf', 'report-0.pdf');
  await workers.extract('pdf', await readFile(first), { externalId: 'pdf/report-0.pdf', path: first });
  const workerStartMs = performance.now() - startStarted;
  const inWorker = await readAll(workers).finally(() => workers.dispose());
  const pages = inProcess.pages;
  const readerMs = inProcess.wallMs;

  let cairn = await openCairn(dataDir);
  const syncStarted = performance.now();
  const cpuStarted = process.cpuUsage();
  const connectionId = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'bench notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    }),
  ).id;
  const allFiles = options.markdownFiles + options.pdfFiles;
  const docsSql = 'SELECT count(*)::int AS n FROM documents WHERE connection_id = $1';
  await until(cairn, docsSql, [connectionId], allFiles, syncStarted);
  await cairn.whenIdle();
  const cpu = process.cpuUsage(cpuStarted);
  const fullSync = {
    wallMs: performance.now() - syncStarted,
    cpuMs: (cpu.user + cpu.system) / 1000,
    documents: await count(cairn, docsSql, [connectionId]),
    chunks: await count(
      cairn,
      'SELECT count(*)::int AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.connection_id = $1',
      [connectionId],
    ),
  };

  // A restart with nothing changed: the catch-up sync lists and compares, and writes nothing.
  const runsSql =
    'SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1 AND finished_at IS NOT NULL';
  const runsBefore = await count(cairn, runsSql, [connectionId]);
  await cairn.dispose();
  const catchUpStarted = performance.now();
  cairn = await openCairn(dataDir);
  await until(cairn, runsSql, [connectionId], runsBefore + 1, catchUpStarted);
  const catchUpUnchanged = { wallMs: performance.now() - catchUpStarted };
  await cairn.whenIdle();

  // Saved files, one at a time (half new, half edits of an existing note), each waited for.
  const latencies: number[] = [];
  const foundSql =
    "SELECT count(*)::int AS n FROM documents WHERE connection_id = $1 AND external_id = $2 AND content LIKE '%' || $3 || '%'";
  for (let i = 0; i < options.watchSamples; i++) {
    const token = `livetoken${i}x${options.seed}`;
    const externalId = i % 2 === 0 ? `live/saved-${i}.md` : `topic-${i % 20}/note-${i}.md`;
    await mkdir(join(notes, 'live'), { recursive: true });
    const started = performance.now();
    await writeFile(join(notes, externalId), `# Saved ${i}\n\nA note saved while watched: ${token}.\n`);
    latencies.push(await until(cairn, foundSql, [connectionId, externalId, token], 1, started));
    await cairn.whenIdle();
    // Past the debounce window, so the next save is a sync of its own.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  // A burst (a git checkout): every file written at once.
  const burstRunsBefore = await count(cairn, runsSql, [connectionId]);
  const burstStarted = performance.now();
  await mkdir(join(notes, 'burst'));
  for (let start = 0; start < options.burstFiles; start += 100)
    await Promise.all(
      Array.from({ length: Math.min(100, options.burstFiles - start) }, (_, j) =>
        writeFile(
          join(notes, 'burst', `b${start + j}.md`),
          `# Burst ${start + j}\n\nCheckout file ${start + j}.`,
        ),
      ),
    );
  await until(
    cairn,
    "SELECT count(*)::int AS n FROM documents WHERE connection_id = $1 AND external_id LIKE 'burst/%'",
    [connectionId],
    options.burstFiles,
    burstStarted,
  );
  const burstMs = performance.now() - burstStarted;
  await cairn.whenIdle();
  const burst = {
    files: options.burstFiles,
    syncRuns: (await count(cairn, runsSql, [connectionId])) - burstRunsBefore,
    wallMs: burstMs,
  };
  await cairn.dispose();
  await rm(options.workDir, { recursive: true, force: true });
  return {
    markdownFiles: options.markdownFiles,
    pdfFiles: options.pdfFiles,
    pdfPages: pages,
    fullSync,
    pdfReader: { pages, wallMs: readerMs, pagesPerSecond: pages / (readerMs / 1000) },
    pdfReaderWorker: {
      pages: inWorker.pages,
      wallMs: inWorker.wallMs,
      pagesPerSecond: inWorker.pages / (inWorker.wallMs / 1000),
      startAndFirstFileMs: workerStartMs,
    },
    catchUpUnchanged,
    watchLatencyMs: summarizeLatencies(latencies),
    burst,
    peakRssMb: peakRssMb(),
  };
}

export interface IdleWatchResult {
  files: number;
  folders: number;
  idleSeconds: number;
  /** CPU of this process over the idle window, as a percentage of one core. */
  cpuPercentWatching: number;
  /** The same window in the same process before the watcher started. */
  cpuPercentBaseline: number;
  startWatchMs: number;
}

async function cpuPercentOver(seconds: number): Promise<number> {
  const before = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
}

/** A tree of `files` small notes in folders of 100, watched by the watcher the app uses, left idle. */
export async function runIdleWatchScenario(options: {
  workDir: string;
  files: number;
  idleSeconds: number;
}): Promise<IdleWatchResult> {
  const root = join(options.workDir, 'vault');
  await rm(options.workDir, { recursive: true, force: true });
  const folders = Math.ceil(options.files / 100);
  for (let f = 0; f < folders; f++) {
    const folder = join(root, `area-${f % 10}`, `folder-${f}`);
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(100, options.files - f * 100) }, (_, i) =>
        writeFile(join(folder, `note-${f * 100 + i}.md`), `# Note ${f * 100 + i}\n\nIdle vault note.\n`),
      ),
    );
  }
  const cpuPercentBaseline = await cpuPercentOver(options.idleSeconds);
  let changes = 0;
  const started = performance.now();
  const watcher = await parcelWatch(
    root,
    (paths) => (changes += paths.length),
    (error) => {
      throw error;
    },
  );
  const startWatchMs = performance.now() - started;
  // Let the watcher settle before the idle window.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cpuPercentWatching = await cpuPercentOver(options.idleSeconds);
  await watcher.close();
  await rm(options.workDir, { recursive: true, force: true });
  if (changes > 0) throw new Error(`an idle tree reported ${changes} changes`);
  return {
    files: options.files,
    folders,
    idleSeconds: options.idleSeconds,
    cpuPercentWatching,
    cpuPercentBaseline,
    startWatchMs,
  };
}
