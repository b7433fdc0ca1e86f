/**
 * The folder scenario's large-file step (issue #10: "indexing a 20 MB file adds < 300 MB RSS"): one
 * generated large file (Markdown, CSV, a text-heavy PDF or an Excel workbook) indexed through the
 * real composition root after a warm-up sync, with the RSS it added and where the peak went (the
 * JS heap, memory outside it, the database's WASM heap).
 */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { createCairn, type CairnInternals } from '../src-main/core/app/create-cairn';
import { silentLogger } from '../src-main/core/logging/logger';
import { pdfBytes } from '../src-main/testing/file-fixtures';
import { listRuns } from '../src-main/core/sync/sync-runs';
import { unwrap } from '../src-main/testing/integration-kit';
import { generateDocument } from './corpus';
import { peakRssMb } from './process-stats';

export const LARGE_FILE_KINDS = ['markdown', 'csv', 'pdf', 'xlsx'] as const;
export type LargeFileKind = (typeof LARGE_FILE_KINDS)[number];

interface MemoryParts {
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  databaseHeapMb: number;
}

export interface LargeFileResult {
  fileMb: number;
  kind: LargeFileKind;
  rssBeforeMb: number;
  peakRssMb: number;
  /** Peak RSS while indexing minus the RSS just before: what the file cost. */
  addedMb: number;
  wallMs: number;
  chunks: number;
  failures: string[];
  /** Where the peak went: the largest sample of each, for finding what holds memory. */
  peaks: MemoryParts;
  /** The same measures just before the large file's sync. */
  before: MemoryParts;
}

/** Markdown prose of about `bytes` (CJK and English paragraphs under headings), as a large export is. */
function largeMarkdown(bytes: number, seed: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = generateDocument(i, { seed }).markdown;
    parts.push(text);
    size += Buffer.byteLength(text) + 2;
  }
  return parts.join('\n\n');
}

function csvRow(i: number): string[] {
  return [
    String(i),
    `region ${i % 13}`,
    `product ${i % 101}`,
    `delivered on time, invoice ${i} settled; 发票已开 ${i}`,
  ];
}

/** A PDF of about `bytes` whose pages are full of English prose (PDF fonts here are Latin-only). */
export function largePdf(bytes: number, seed: number): Buffer {
  const pages: string[][] = [];
  let lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    for (const line of generateDocument(i, { seed }).markdown.split('\n')) {
      // The fixture's font is Latin-only: the English lines of the generated documents.
      const text = line.replace(/^#+\s*/, '').trim();
      if (!/^[\x20-\x7e]{20,}$/.test(text)) continue;
      // A line of a page is at most ~90 characters, as a typeset page's is.
      for (let start = 0; start < text.length; start += 90) {
        lines.push(text.slice(start, start + 90));
        size += 100;
        if (lines.length === 48) {
          pages.push(lines);
          lines = [];
        }
      }
    }
  }
  if (lines.length > 0) pages.push(lines);
  return pdfBytes(pages);
}

/** Writes the file with a streaming writer, so the generator itself stays small. */
async function writeLargeXlsx(path: string, bytes: number): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(['id', 'region', 'product', 'notes']).commit();
  // ~36 bytes of zipped sheet XML per row here (a 20 MB target gave a 16 MB file).
  const rows = Math.ceil(bytes / 36);
  for (let i = 0; i < rows; i++) sheet.addRow(csvRow(i)).commit();
  sheet.commit();
  await workbook.commit();
}

async function writeLargeFile(
  dir: string,
  kind: LargeFileKind,
  bytes: number,
  seed: number,
): Promise<string> {
  const path = join(dir, `export.${kind === 'markdown' ? 'md' : kind}`);
  if (kind === 'markdown') await writeFile(path, largeMarkdown(bytes, seed));
  else if (kind === 'pdf') await writeFile(path, largePdf(bytes, seed));
  else if (kind === 'xlsx') await writeLargeXlsx(path, bytes);
  else {
    const rows = ['id,region,product,notes'];
    let size = rows[0]!.length;
    for (let i = 0; size < bytes; i++) {
      const [id, region, product, notes] = csvRow(i);
      const row = `${id},${region},${product},"${notes}"`;
      rows.push(row);
      size += Buffer.byteLength(row) + 1;
    }
    await writeFile(path, rows.join('\n'));
  }
  return path;
}

/** Node's collector, reachable without --expose-gc on the command line (bench only). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Indexes one folder holding one large file and reports the RSS it added. */
export async function runLargeFileScenario(options: {
  workDir: string;
  bytes: number;
  kind: LargeFileKind;
  seed: number;
}): Promise<LargeFileResult> {
  const notes = join(options.workDir, 'large');
  await rm(options.workDir, { recursive: true, force: true });
  await mkdir(notes, { recursive: true });
  // Written before the database opens, and collected, so the baseline holds none of the generator.
  const staged = join(options.workDir, 'staged');
  await mkdir(staged);
  const stagedPath = await writeLargeFile(staged, options.kind, options.bytes, options.seed);
  const fileBytes = (await stat(stagedPath)).size;
  collectGarbage();
  const cairn = await createCairn({
    dataDir: join(options.workDir, 'data'),
    env: {},
    scheduler: false,
    watchFolders: false,
    logger: silentLogger(),
  });
  // A first sync of a small note loads what any sync loads (the embedder's tables, the database's
  // caches), so the baseline is the steady state and the difference is the large file's alone.
  await writeFile(join(notes, 'warm-up.md'), generateDocument(0, { seed: options.seed }).markdown);
  const connection = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'large',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    }),
  );
  unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
  await cairn.whenIdle();
  await rename(stagedPath, join(notes, stagedPath.slice(staged.length + 1)));
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
  const maxRssBeforeMb = peakRssMb();
  let peak = rssBeforeMb;
  const before = memoryParts(cairn);
  const peaks = { ...before };
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20);
    const now = memoryParts(cairn);
    for (const key of Object.keys(peaks) as (keyof MemoryParts)[])
      peaks[key] = Math.max(peaks[key], now[key]);
  }, 20);
  const started = performance.now();
  unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
  await cairn.whenIdle();
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  // ru_maxrss also sees peaks between two samples, once they pass the earlier maximum.
  if (peakRssMb() > maxRssBeforeMb) peak = Math.max(peak, peakRssMb());
  const chunks = (await cairn.db.query<{ n: number }>('SELECT count(*)::int AS n FROM chunks')).rows[0]!.n;
  // Why the large file was not indexed, if it was not (a limit, the reader's memory limit).
  const failures =
    (await listRuns(cairn.db, connection.id, 1))[0]?.errors.map((error) => error.message) ?? [];
  await cairn.dispose();
  await rm(options.workDir, { recursive: true, force: true });
  return {
    fileMb: fileBytes / 1e6,
    kind: options.kind,
    rssBeforeMb,
    peakRssMb: peak,
    addedMb: peak - rssBeforeMb,
    wallMs,
    chunks,
    failures,
    peaks,
    before,
  };
}

/**
 * The parts of the process's memory: the JS heap, memory outside it, and the database's WASM heap
 * (PGlite's Emscripten module; it grows and never shrinks, so its peak is what a write cost).
 */
function memoryParts(cairn: CairnInternals): MemoryParts {
  const usage = process.memoryUsage();
  const mb = (bytes: number) => bytes / 2 ** 20;
  const heap = (cairn.db as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8?.length ?? 0;
  return {
    heapUsedMb: mb(usage.heapUsed),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
    databaseHeapMb: mb(heap),
  };
}
