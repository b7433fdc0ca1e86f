/**
 * What one hostile file may cost (#25 item 0), measured as peak RSS of a real child process
 * that syncs a folder through the composition root (testing/memory-sync-child.ts):
 *   - a Word file of about 1 MB that unpacks to 300 MiB (mammoth alone took 3.2 GB of RSS for it,
 *     and in a watched folder the app crashed in a loop) is refused, naming the limit;
 *   - a 2.2 MB Markdown table of 20,000 columns (2.4 GB RSS and 170 KB chunks before) is indexed.
 * What they add is measured against the same sync of a one-line note in the same setup: a fresh
 * data directory's own peak (PGlite, migrations, the embedder) is most of the total (both files:
 * 625 MB under vitest's database template; a one-line note alone: 871 MB without the template).
 * Numbers, not timings: they hold however loaded the machine is.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncRunView } from '@shared/models';
import { docxBomb } from '../../testing/file-fixtures';

const CHILD = fileURLToPath(new URL('../../testing/memory-sync-child.ts', import.meta.url));
/** What the hostile files may add to the peak of the same sync of a one-line note. */
const ADDED_BOUND_MB = 200;

interface ChildReport {
  run: SyncRunView;
  documents: number;
  maxRssMb: number;
}

let scratch: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-memory-'));
});

function folderOf(name: string, files: Record<string, string | Buffer>): string {
  const folder = join(scratch, name);
  mkdirSync(folder);
  for (const [file, content] of Object.entries(files)) writeFileSync(join(folder, file), content);
  return folder;
}
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function syncInChild(folder: string, dataDir: string): Promise<ChildReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, folder], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => void (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => void (stderr += data.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      if (code !== 0) reject(new Error(`child ended ${code ?? signal}: ${stderr.slice(-2000)}`));
      else resolve(JSON.parse(output.trim().split('\n').pop()!) as ChildReport);
    }),
  );
}

/** A table `columns` wide: its header row alone is ~200 KB at 20,000 columns. */
function wideTable(columns: number, rows: number): string {
  const row = (cells: (c: number) => string) =>
    `| ${Array.from({ length: columns }, (_, c) => cells(c)).join(' | ')} |`;
  return [
    '# Wide table',
    '',
    row((c) => `col${c}`),
    `|${' --- |'.repeat(columns)}`,
    ...Array.from({ length: rows }, (_, r) => row((c) => `v${(r * 7 + c) % 1000}`)),
    '',
  ].join('\n');
}

describe(`hostile files add at most ${ADDED_BOUND_MB} MB to a sync's peak RSS`, () => {
  it('a 300 MiB Word bomb is refused naming the limit, and a 20,000-column table is indexed', async () => {
    const bomb = docxBomb({ inflatedMiB: 300 });
    expect(bomb.length).toBeLessThan(1.5 * 1024 * 1024);
    const table = wideTable(20_000, 14);
    expect(table.length).toBeGreaterThan(2 * 1024 * 1024);
    const baseline = await syncInChild(
      folderOf('plain', { 'note.md': '# Note\n\nOne line.\n' }),
      join(scratch, 'data-plain'),
    );
    const report = await syncInChild(
      folderOf('hostile', { 'bomb.docx': bomb, 'wide.md': table }),
      join(scratch, 'data-hostile'),
    );
    expect(report.run.counters).toMatchObject({ added: 1 });
    const refused = report.run.errors.find((error) => error.externalId === 'bomb.docx');
    expect(refused).toMatchObject({ reason: 'folder.too-large' });
    expect(refused?.message).toContain('64.0 MiB limit');
    expect(report.documents).toBe(1);
    console.info(
      `peak RSS: one-line note ${baseline.maxRssMb} MB; docx bomb + 20,000-column table ${report.maxRssMb} MB`,
    );
    expect(report.maxRssMb - baseline.maxRssMb).toBeLessThan(ADDED_BOUND_MB);
  }, 900_000);
});
