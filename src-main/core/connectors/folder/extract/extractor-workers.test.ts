/**
 * PDFs are read in a worker thread with a heap limit: a file that needs more fails alone with its
 * reason and the sync goes on; a reader that stops answering is stopped; a cancel ends the worker;
 * one worker serves file after file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfBytes } from '../../../../testing/file-fixtures';
import { insertConnection } from '../../../../testing/index-fixtures';
import { openDatabase, type Db } from '../../../db/database';
import { CairnError } from '../../../errors';
import { PgDocumentStore } from '../../../index/pg-document-store';
import { SyncEngine } from '../../../sync/sync-engine';
import { SyncLock } from '../../../sync/sync-lock';
import { FolderConnector } from '../folder-connector';
import { ExtractorWorkers, sharedExtractorWorkers } from './extractor-workers';

/** Pages of prose: enough of them and PDF.js needs far more heap than a small limit allows. */
function prosePages(count: number, tag: string): string[][] {
  return Array.from({ length: count }, (_p, page) =>
    Array.from(
      { length: 48 },
      (_l, line) => `${tag} page ${page + 1} line ${line + 1}: the hangar ledger lists every zeppelin part`,
    ),
  );
}

const HEAVY_PAGES = 600;
const SMALL_LIMIT_MB = 16;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-extract-workers-'));
  await writeFile(join(dir, 'small.pdf'), pdfBytes([['Airship hangar budget'], ['Second page text']]));
  await writeFile(join(dir, 'heavy.pdf'), pdfBytes(prosePages(HEAVY_PAGES, 'heavy')));
  await writeFile(join(dir, 'note.md'), '# Notes\n\nThe hangar opens in May.\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function context(name: string, signal?: AbortSignal) {
  return { externalId: name, path: join(dir, name), ...(signal ? { signal } : {}) };
}

describe('ExtractorWorkers', () => {
  it('fails a PDF that needs more than the heap limit alone; the sync goes on and indexes the rest', async () => {
    const db: Db = await openDatabase();
    try {
      const engine = new SyncEngine({ db, store: new PgDocumentStore(db), lock: new SyncLock(db) });
      await insertConnection(db, 'files');
      const connector = new FolderConnector({ root: dir, extractorWorkers: { heapLimitMb: SMALL_LIMIT_MB } });
      const run = await engine.run({ connectionId: 'files', connector }).finally(() => connector.dispose());
      expect(run.status).not.toBe('failed');
      expect(run.counters).toMatchObject({ added: 2, failed: 1 });
      expect(run.errors).toEqual([
        expect.objectContaining({
          externalId: 'heavy.pdf',
          reason: 'folder.extract-limit',
          message: expect.stringContaining(`too large to extract within ${SMALL_LIMIT_MB} MB`),
        }),
      ]);
      const stored = await db.query<{ external_id: string }>(
        'SELECT external_id FROM documents WHERE connection_id = $1 ORDER BY external_id',
        ['files'],
      );
      expect(stored.rows.map((row) => row.external_id)).toEqual(['note.md', 'small.pdf']);
    } finally {
      await db.close();
    }
  });

  it('reads the same PDF under the default limit, page by page', async () => {
    const workers = new ExtractorWorkers();
    try {
      const bytes = await readFile(join(dir, 'heavy.pdf'));
      const extracted = await workers.extract('pdf', bytes, context('heavy.pdf'));
      expect(extracted.parts).toHaveLength(HEAVY_PAGES);
      expect(extracted.parts![HEAVY_PAGES - 1]).toMatchObject({
        location: { kind: 'page', page: HEAVY_PAGES },
      });
    } finally {
      await workers.dispose();
    }
  });

  it('reuses one worker for file after file, and starts a fresh one after a large file', async () => {
    const small = await readFile(join(dir, 'small.pdf'));
    const workers = new ExtractorWorkers({ recycleAfterBytes: small.byteLength + 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const extracted = await workers.extract('pdf', small, context('small.pdf'));
        expect(extracted.parts?.map((part) => part.markdown)).toEqual([
          'Airship hangar budget',
          'Second page text',
        ]);
      }
      expect(workers.started).toBe(1);
      expect(workers.alive).toBe(true);
      await workers.extract('pdf', await readFile(join(dir, 'heavy.pdf')), context('heavy.pdf'));
      // The worker that read the large file was ended, giving its heap back.
      expect(workers.alive).toBe(false);
      await workers.extract('pdf', small, context('small.pdf'));
      expect(workers.started).toBe(2);
    } finally {
      await workers.dispose();
    }
  });

  it('connectors of successive runs share one worker; disposing a connector leaves it to the next', async () => {
    const shared = sharedExtractorWorkers();
    const startedBefore = shared.started;
    for (let run = 0; run < 2; run++) {
      const connector = new FolderConnector({ root: dir });
      const fetched = await connector
        .fetch({
          externalId: 'small.pdf',
          title: 'small',
          knowledgeBase: 'files',
          url: null,
          remoteUpdatedAt: null,
          revision: null,
        })
        .finally(() => connector.dispose());
      expect(fetched.parts).toHaveLength(2);
    }
    expect(shared.started - startedBefore).toBe(1);
    expect(shared.alive).toBe(true);
  });

  it('a cancel ends the worker at once; the next file gets a fresh one', async () => {
    const workers = new ExtractorWorkers();
    try {
      const controller = new AbortController();
      const heavy = workers.extract(
        'pdf',
        await readFile(join(dir, 'heavy.pdf')),
        context('heavy.pdf', controller.signal),
      );
      expect(workers.alive).toBe(true);
      controller.abort();
      await expect(heavy).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(workers.alive).toBe(false);
      const small = await workers.extract(
        'pdf',
        await readFile(join(dir, 'small.pdf')),
        context('small.pdf'),
      );
      expect(small.parts).toHaveLength(2);
      expect(workers.started).toBe(2);
    } finally {
      await workers.dispose();
    }
  });

  it('stops a reader that stops answering and fails that file with its reason, not permanently', async () => {
    const entry = fileURLToPath(new URL('../../../../testing/silent-extract-worker.mjs', import.meta.url));
    const workers = new ExtractorWorkers({ entry, stallMs: 200 });
    try {
      const error = await workers.extract('pdf', Buffer.from('%PDF-1.4'), context('stuck.pdf')).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(CairnError);
      expect(error).toMatchObject({
        code: 'DOCUMENT_FAILED',
        details: { reason: 'folder.extract-limit' },
        message: expect.stringContaining('stuck.pdf: the PDF reader stopped responding'),
      });
      expect((error as CairnError).details?.['permanent']).toBeUndefined();
      expect(workers.alive).toBe(false);
    } finally {
      await workers.dispose();
    }
  });
});
