/**
 * Issue 2's Done-means through the real composition root and the folder connector, on an on-disk
 * data directory: 200 generated notes; change 3, delete 1, add 2 and the next sync touches only
 * those; two syncs at once run once; a process killed mid-sync leaves every document in its last
 * good state, its lock is taken over, and the next sync completes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { dataDirLayout } from '../app/data-dir';
import { chunkMarkdown } from '../chunking/chunker';
import { openDatabase } from '../db/database';
import { silentLogger } from '../logging/logger';
import { normalizeText } from '../text/normalize';
import {
  markerOf,
  notePath,
  noteMarkdown,
  readFolder,
  writeFolderCorpus,
  writeNote,
} from '../../testing/folder-corpus';
import { searchHits, syncToEnd, unwrap } from '../../testing/integration-kit';

const CHILD = fileURLToPath(new URL('../../testing/crash-sync-child.ts', import.meta.url));

let scratch: string;
let notes: string;
let dataDir: string;
let cairn: CairnInternals | null = null;
let connectionId: string;

async function open(): Promise<CairnInternals> {
  cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
  return cairn;
}

async function close(): Promise<void> {
  await cairn?.dispose();
  cairn = null;
}

function chunksOf(markdown: string): string[] {
  return chunkMarkdown(normalizeText(markdown)).map((chunk) => chunk.text);
}

/** What the index holds for the connection, read straight from the database (Cairn must be closed). */
async function indexSnapshot(): Promise<
  Map<string, { content: string; chunks: string[]; chunkCount: number }>
> {
  const db = await openDatabase({ dataDir: dataDirLayout(dataDir).database });
  try {
    const documents = await db.query<{
      id: number;
      external_id: string;
      content: string;
      chunk_count: number;
    }>('SELECT id, external_id, content, chunk_count FROM documents WHERE connection_id = $1', [
      connectionId,
    ]);
    const chunks = await db.query<{ document_id: number; content: string }>(
      'SELECT document_id, content FROM chunks WHERE connection_id = $1 ORDER BY document_id, ord',
      [connectionId],
    );
    const byDocument = new Map<number, string[]>();
    for (const chunk of chunks.rows)
      byDocument.set(Number(chunk.document_id), [
        ...(byDocument.get(Number(chunk.document_id)) ?? []),
        chunk.content,
      ]);
    return new Map(
      documents.rows.map((row) => [
        row.external_id,
        { content: row.content, chunks: byDocument.get(Number(row.id)) ?? [], chunkCount: row.chunk_count },
      ]),
    );
  } finally {
    await db.close();
  }
}

/** Every indexed document is whole: its chunks are exactly the chunking of its stored content. */
function expectWholeDocuments(snapshot: Awaited<ReturnType<typeof indexSnapshot>>): void {
  for (const [externalId, document] of snapshot) {
    expect({ externalId, chunks: document.chunks }).toEqual({
      externalId,
      chunks: chunkMarkdown(document.content).map((chunk) => chunk.text),
    });
    expect(document.chunkCount).toBe(document.chunks.length);
  }
}

function expectIndexMatchesFolder(snapshot: Awaited<ReturnType<typeof indexSnapshot>>): void {
  const folder = readFolder(notes);
  expect([...snapshot.keys()].sort()).toEqual([...folder.keys()].sort());
  for (const [externalId, text] of folder)
    expect({ externalId, content: snapshot.get(externalId)?.content }).toEqual({
      externalId,
      content: normalizeText(text),
    });
  expectWholeDocuments(snapshot);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-folder-it-'));
  notes = join(scratch, 'notes');
  dataDir = join(scratch, 'data');
  writeFolderCorpus(notes, 200);
  await open();
  connectionId = unwrap(
    await cairn!.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    }),
  ).id;
});

afterAll(async () => {
  await close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a folder of 200 Chinese and English notes through createCairn', () => {
  it('indexes every note on the first sync, and finds 2-character Chinese words and exact markers', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    const run = await syncToEnd(cairn!, connectionId).finally(() => process.off('warning', onWarning));
    // 200 queued documents, one cancellable run: no "possible EventTarget memory leak" noise.
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    const expectedChunks = [...readFolder(notes).values()].reduce(
      (sum, text) => sum + chunksOf(text).length,
      0,
    );
    expect(run).toMatchObject({ status: 'succeeded', errors: [] });
    expect(run.counters).toMatchObject({
      seen: 200,
      added: 200,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      failed: 0,
      chunksWritten: expectedChunks,
    });

    // 年假 (annual leave) is the topic of every note with n % 8 === 2 and n even.
    const [first] = await searchHits(cairn!, '年假');
    expect(first?.title).toContain('年假');
    const [exact] = await searchHits(cairn!, markerOf(137));
    expect(exact?.externalId).toBe(notePath(137));
  });

  it('after changing 3, deleting 1 and adding 2 notes the next sync fetches and embeds only those', async () => {
    const changed = [10, 11, 14];
    for (const n of changed)
      writeNote(notes, n, 2, `${noteMarkdown(n, 2)}\n修订说明：新增内容 zqxrev${n}。\n`);
    rmSync(join(notes, ...notePath(20).split('/')));
    writeNote(notes, 201);
    writeNote(notes, 202);
    const touched = [...changed, 201, 202].map((n) =>
      readFileSync(join(notes, ...notePath(n).split('/')), 'utf8'),
    );

    const run = await syncToEnd(cairn!, connectionId);
    expect(run.status).toBe('succeeded');
    expect(run.counters).toMatchObject({
      seen: 201,
      added: 2,
      updated: 3,
      unchanged: 196,
      deleted: 1,
      failed: 0,
      chunksWritten: touched.reduce((sum, text) => sum + chunksOf(text).length, 0),
    });

    expect((await searchHits(cairn!, 'zqxrev11'))[0]?.externalId).toBe(notePath(11));
    expect((await searchHits(cairn!, markerOf(202)))[0]?.externalId).toBe(notePath(202));
    const gone = await searchHits(cairn!, markerOf(20), 30);
    expect(gone.map((hit) => hit.externalId)).not.toContain(notePath(20));
  });

  it('two syncs started at once: exactly one runs, the other is refused with ALREADY_SYNCING', async () => {
    const before = unwrap(await cairn!.api.sync.runs({ connectionId })).length;
    const results = await Promise.all([
      cairn!.api.sync.start({ connectionId }),
      cairn!.api.sync.start({ connectionId }),
    ]);
    await cairn!.whenIdle();
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.error.code)).toEqual([
      'ALREADY_SYNCING',
    ]);
    const runs = unwrap(await cairn!.api.sync.runs({ connectionId }));
    expect(runs).toHaveLength(before + 1);
    expect(runs[0]).toMatchObject({
      status: 'succeeded',
      counters: { seen: 201, unchanged: 201, added: 0, updated: 0, deleted: 0 },
    });
  });

  it('the index matches the folder exactly: same notes, same text, every note whole', async () => {
    await close();
    expectIndexMatchesFolder(await indexSnapshot());
  });

  it('a process killed mid-sync leaves each note in its last good state; the next start takes the lock over and the sync completes', async () => {
    const edited = Array.from({ length: 60 }, (_, i) => 101 + i);
    const before = new Map(
      edited.map((n) => [
        notePath(n),
        normalizeText(readFileSync(join(notes, ...notePath(n).split('/')), 'utf8')),
      ]),
    );
    for (const n of edited) writeNote(notes, n, 3, `${noteMarkdown(n, 3)}\n第三版补充：zqxv3n${n}。\n`);
    const unchanged = 201 - edited.length;

    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, connectionId, '100'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let output = '';
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => void (stderr += data.toString()));
    const killedMidWrite = await new Promise<boolean>((resolve) => {
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString();
        const written = output
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { phase?: string; documentsDone?: number })
          .filter((event) => event.phase === 'writing')
          .map((event) => event.documentsDone ?? 0);
        if (written.length > 0 && Math.max(...written) >= unchanged + 5) {
          child.kill('SIGKILL');
          resolve(true);
        }
      });
      void exited.then(() => resolve(false));
    });
    const exit = await exited;
    expect({ killedMidWrite, exit, finished: output.includes('"finished"') }, stderr).toEqual({
      killedMidWrite: true,
      exit: { code: null, signal: 'SIGKILL' },
      finished: false,
    });
    // The dead process's lock is still on disk.
    const lockFile = dataDirLayout(dataDir).lock;
    expect(existsSync(lockFile)).toBe(true);
    expect((JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid).toBe(child.pid);

    const crashed = await indexSnapshot();
    expectWholeDocuments(crashed);
    expect(crashed.size).toBe(201);
    let landed = 0;
    for (const n of edited) {
      const path = notePath(n);
      const now = normalizeText(readFileSync(join(notes, ...path.split('/')), 'utf8'));
      const content = crashed.get(path)?.content;
      expect([before.get(path), now]).toContain(content);
      if (content === now) landed++;
    }
    expect(landed).toBeGreaterThanOrEqual(5);
    expect(landed).toBeLessThan(edited.length);

    const reopened = await open();
    const [abandoned] = unwrap(await reopened.api.sync.runs({ connectionId, limit: 1 }));
    expect(abandoned).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
    expect(
      unwrap(await reopened.api.connections.list()).find((view) => view.id === connectionId),
    ).toMatchObject({
      syncStatus: 'synced',
      syncError: 'Cairn stopped during this sync.',
      syncErrorCode: 'CANCELLED',
    });

    const resumed = await syncToEnd(reopened, connectionId);
    expect(resumed).toMatchObject({
      status: 'succeeded',
      counters: {
        seen: 201,
        added: 0,
        deleted: 0,
        failed: 0,
        updated: edited.length - landed,
        unchanged: unchanged + landed,
      },
    });
    expect(
      unwrap(await reopened.api.connections.list()).find((view) => view.id === connectionId),
    ).toMatchObject({ syncStatus: 'synced', syncError: null, syncErrorCode: null, documentCount: 201 });
    await close();
    expectIndexMatchesFolder(await indexSnapshot());
    // A tsx child process, two opens and two syncs: over the 60 s default inside npm test at load 20.
  }, 300_000);
});
