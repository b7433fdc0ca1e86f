/**
 * A disk that fills up under Cairn (issue #25 item 2), at the file-system layer: writes under the
 * data directory that need new space fail with ENOSPC (testing/full-disk.ts), both for the
 * database (PGlite's file system) and the log. A sync in the middle of writing stops with
 * "Disk full: …", the documents not written keep their last good state, the sync lock is free,
 * searches go on, and closing and opening Cairn again on the full disk ends without hanging. Once
 * there is space again the next sync writes the rest.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRunView } from '@shared/models';
import { chunkMarkdown } from '../chunking/chunker';
import { droppedLogLines } from '../logging/logger';
import { simulateFullDisk, type FullDisk } from '../../testing/full-disk';
import { createCairn, type CairnInternals as Cairn } from './create-cairn';

const DOCUMENTS = 60;
let scratch: string;
let notes: string;
let dataDir: string;
let disk: FullDisk;

function note(i: number, edit: string): string {
  return `# Note ${i}\n\n${Array.from(
    { length: 12 },
    (_, j) =>
      `Paragraph ${j} of note ${i}${edit} covers the harbour ledger ${i % 7} and the 第${j}段 报销 流程.`,
  ).join('\n\n')}`;
}

function writeNotes(edit: string): void {
  for (let i = 0; i < DOCUMENTS; i++) writeFileSync(join(notes, `n${i}.md`), note(i, edit));
}

function open(): Promise<Cairn> {
  return createCairn({ dataDir, env: {}, scheduler: false });
}

/** Each indexed note: which edit it holds, and whether its chunks are the ones its text makes. */
async function indexed(cairn: Cairn): Promise<{ edits: Record<string, number>; whole: boolean }> {
  const rows = await cairn.db.query<{ content: string; chunks: string[] }>(
    `SELECT d.content, array_agg(c.content ORDER BY c.ord) AS chunks
     FROM documents d JOIN chunks c ON c.document_id = d.id GROUP BY d.id`,
  );
  const edits: Record<string, number> = {};
  let whole = rows.rows.length === DOCUMENTS;
  for (const row of rows.rows) {
    const edit = /note \d+( v\d)? covers/.exec(row.content)?.[1]?.trim() ?? 'v1';
    edits[edit] = (edits[edit] ?? 0) + 1;
    if (JSON.stringify(chunkMarkdown(row.content).map((c) => c.text)) !== JSON.stringify(row.chunks))
      whole = false;
  }
  return { edits, whole };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cairn-disk-full-'));
  notes = join(scratch, 'notes');
  dataDir = join(scratch, 'data');
  mkdirSync(notes);
  writeNotes('');
  disk = simulateFullDisk(dataDir);
});

afterAll(async () => {
  disk?.restore();
  await rm(scratch, { recursive: true, force: true });
});

describe('a full disk', () => {
  it(
    'stops a sync with "Disk full", keeps the index whole and searchable, frees the lock, and opens again without hanging',
    { timeout: 300_000 },
    async () => {
      let cairn = await open();
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
      expect(await indexed(cairn)).toEqual({ edits: { v1: DOCUMENTS }, whole: true });

      // Every note changes; the disk fills up (unseen by free-space checks, as when another
      // program fills it) once the sync has written its first documents.
      writeNotes(' v2');
      const droppedBefore = droppedLogLines();
      const off = cairn.events.on('sync.progress', (progress) => {
        if (progress.phase === 'writing' && progress.documentsDone > 0 && !disk.full)
          disk.fill(0, { unseen: true });
      });
      const finished = new Promise<SyncRunView>((resolve) =>
        cairn.events.on('sync.finished', (run) => resolve(run)),
      );
      const started = await cairn.api.sync.start({ connectionId });
      expect(started.ok).toBe(true);
      const run = await finished;
      await cairn.whenIdle();
      off();
      const afterFull = await indexed(cairn);
      const search = await cairn.api.search.query({ query: 'harbour ledger' });
      // Now free-space checks see it too: the next sync says so before fetching anything.
      disk.fill(0);
      const again = await cairn.api.sync.start({ connectionId });
      await cairn.whenIdle();
      const runs = await cairn.api.sync.runs({ connectionId });
      expect({
        status: run.status,
        code: run.error?.code,
        message: run.error?.message,
        refused: disk.refused > 0,
        whole: afterFull.whole,
        v1Left: (afterFull.edits['v1'] ?? 0) > 0,
        searched: search.ok && search.value.hits.length > 0,
        // The lock is free: another sync starts (and stops for the same reason).
        againStarted: again.ok,
        againSaid: runs.ok ? runs.value[0]?.error?.message : undefined,
        logLost: droppedLogLines() > droppedBefore,
      }).toEqual({
        status: 'failed',
        code: 'DISK_FULL',
        message: expect.stringMatching(
          /^Disk full: \d[\d,]* MB free on \/.*; (the index is unchanged|the sync stopped after \d+ documents; the rest of the index is unchanged)\.$/,
        ),
        refused: true,
        whole: true,
        v1Left: true,
        searched: true,
        againStarted: true,
        againSaid: expect.stringMatching(
          /^Disk full: 0 MB free on \/.* \(this needs about \d+ MB\); \d+ changed documents were not synced; the index is unchanged\.$/,
        ),
        logLost: true,
      });

      // Closing and opening again on the still-full disk does not hang: the space Cairn kept aside
      // (space-reserve.ts) is given back, so the index opens and searches go on.
      await cairn.dispose();
      const reopened = await open();
      const found = await reopened.api.search.query({ query: 'harbour ledger' });
      await reopened.dispose();
      expect(found.ok && found.value.hits.length > 0).toBe(true);

      // Space again: the next sync writes the rest.
      disk.free();
      cairn = await open();
      await cairn.api.sync.start({ connectionId });
      await cairn.whenIdle();
      const last = await cairn.api.sync.runs({ connectionId });
      const after = await indexed(cairn);
      await cairn.dispose();
      expect({ status: last.ok ? last.value[0]?.status : undefined, ...after }).toEqual({
        status: 'succeeded',
        edits: { v2: DOCUMENTS },
        whole: true,
      });
    },
  );
});
