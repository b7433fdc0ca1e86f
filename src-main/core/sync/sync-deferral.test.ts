/**
 * What a run does with documents it does not index without failing: deferred ones (the platform's
 * request limit said stop) wait for the next run and land exactly once; skipped kinds are counted;
 * a part of the source the connector could not list is recorded and blocks deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  platformGap,
  type DocumentRef,
  type FetchedDocument,
  type ListingReport,
} from '../connectors/connector';
import { openDatabase, type Db } from '../db/database';
import { CairnError, throwIfAborted } from '../errors';
import { PgDocumentStore } from '../index/pg-document-store';
import { MemoryConnector, insertConnection } from '../../testing/index-fixtures';
import { SyncEngine } from './sync-engine';
import { SyncLock } from './sync-lock';
import { listRuns } from './sync-runs';
import { ConnectionRepository } from '../connections/connection-repository';

let db: Db;
let store: PgDocumentStore;
let engine: SyncEngine;

beforeAll(async () => {
  db = await openDatabase();
  store = new PgDocumentStore(db);
  engine = new SyncEngine({ db, store, lock: new SyncLock(db), fetchConcurrency: 8 });
});
afterAll(async () => {
  await db.close();
});

/** A platform with a request budget per "hour": past it every fetch is refused until `newHour()`. */
class QuotaConnector extends MemoryConnector {
  budget: number;
  readonly fetchedOk: string[] = [];
  skippedKinds: { externalId: string; kind: string }[] = [];
  gap: CairnError | null = null;

  constructor(private readonly perHour: number) {
    super();
    this.budget = perHour;
  }

  newHour(): void {
    this.budget = this.perHour;
  }

  override async *list(signal?: AbortSignal, report?: ListingReport): AsyncIterable<DocumentRef> {
    for (const item of this.skippedKinds)
      report?.skipped({
        ...item,
        title: `${item.kind} ${item.externalId}`,
        reason: 'test.no-text-api',
        message: 'no text API',
      });
    if (this.gap) report?.incomplete(platformGap(this.gap, 'The teams could not be listed'));
    yield* super.list(signal);
  }

  override async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    // A little latency, so several fetches are in flight when the budget runs out.
    await new Promise((resolve) => setTimeout(resolve, 2));
    throwIfAborted(signal);
    if (this.budget <= 0) throw new CairnError('RATE_LIMITED', 'HTTP 429 (访问频率超限)');
    this.budget -= 1;
    const fetched = await super.fetch(ref, signal);
    this.fetchedOk.push(ref.externalId);
    return fetched;
  }
}

async function indexedIds(connectionId: string): Promise<string[]> {
  const rows = await db.query<{ external_id: string }>(
    'SELECT external_id FROM documents WHERE connection_id = $1 ORDER BY external_id',
    [connectionId],
  );
  return rows.rows.map((row) => row.external_id);
}

describe('SyncEngine: deferred and skipped documents, listing gaps', () => {
  it('defers what the request limit stopped, and indexes every document exactly once across runs', async () => {
    await insertConnection(db, 'quota');
    const connector = new QuotaConnector(45);
    const ids = Array.from({ length: 120 }, (_, i) => `doc-${String(i).padStart(3, '0')}`);
    for (const id of ids) connector.put(id, `# ${id}\n\nText of ${id}.`);

    const first = await engine.run({ connectionId: 'quota', connector });
    expect(first).toMatchObject({
      status: 'partial',
      counters: { seen: 120, added: 45, failed: 0, deferred: 75 },
      error: { code: 'RATE_LIMITED' },
      errors: [],
    });
    expect(first.notes).toHaveLength(75);
    expect(first.notes.every((n) => n.status === 'deferred' && n.reason.includes('429'))).toBe(true);
    // Once the platform said stop, nothing more was asked of it beyond the fetches already in flight.
    expect(connector.fetches.length).toBeLessThan(45 + 8 + 1);
    // The connection's view (what the card and `cairn status` read) carries the last run's count.
    expect(await new ConnectionRepository(db).get('quota')).toMatchObject({
      deferred: 75,
      skippedKinds: {},
      syncErrorCode: 'RATE_LIMITED',
      syncError: expect.stringContaining('75 documents wait for the next sync.'),
    });

    // The same hour: still limited; nothing is lost or failed, nothing new lands.
    const again = await engine.run({ connectionId: 'quota', connector });
    expect(again.counters).toMatchObject({ unchanged: 45, added: 0, failed: 0, deferred: 75 });

    connector.newHour();
    const second = await engine.run({ connectionId: 'quota', connector });
    expect(second.counters).toMatchObject({ unchanged: 45, added: 45, deferred: 30, failed: 0 });
    connector.newHour();
    const third = await engine.run({ connectionId: 'quota', connector });
    expect(third).toMatchObject({
      status: 'succeeded',
      counters: { unchanged: 90, added: 30, deferred: 0, failed: 0 },
      error: null,
    });
    expect(await indexedIds('quota')).toEqual(ids);
    // Exactly once: every document was fetched successfully one time over the four runs.
    expect([...connector.fetchedOk].sort()).toEqual(ids);
    expect(await new ConnectionRepository(db).get('quota')).toMatchObject({ deferred: 0, syncError: null });
  });

  it('counts skipped kinds, and a listing gap records why and deletes nothing', async () => {
    await insertConnection(db, 'gappy');
    const connector = new QuotaConnector(1000);
    for (const id of ['a', 'b', 'c']) connector.put(id, `# ${id}\n\nbody ${id}`);
    connector.skippedKinds = [
      { externalId: 's1', kind: 'sheet' },
      { externalId: 's2', kind: 'sheet' },
      { externalId: 'm1', kind: 'mindnote' },
    ];
    const first = await engine.run({ connectionId: 'gappy', connector });
    expect(first).toMatchObject({
      status: 'succeeded',
      counters: { added: 3, skipped: 3 },
      skippedKinds: { sheet: 2, mindnote: 1 },
    });
    expect(first.notes.map((n) => [n.externalId, n.status, n.kind])).toEqual([
      ['s1', 'skipped', 'sheet'],
      ['s2', 'skipped', 'sheet'],
      ['m1', 'skipped', 'mindnote'],
    ]);
    expect((await new ConnectionRepository(db).get('gappy')).skippedKinds).toEqual({ sheet: 2, mindnote: 1 });

    connector.documents.delete('c');
    connector.gap = new CairnError('PERMISSION_DENIED', 'HTTP 403 on GET /api/v2/users/{id}/groups.');
    const gapped = await engine.run({ connectionId: 'gappy', connector });
    expect(gapped).toMatchObject({
      status: 'partial',
      counters: { deleted: 0 },
      error: {
        code: 'PERMISSION_DENIED',
        message: expect.stringMatching(/^The teams could not be listed: HTTP 403 .*nothing was deleted/),
      },
    });
    expect(await indexedIds('gappy')).toEqual(['a', 'b', 'c']);
    const [latest] = await listRuns(db, 'gappy', 1);
    expect(latest).toMatchObject({ skippedKinds: { sheet: 2, mindnote: 1 }, counters: { skipped: 3 } });

    connector.gap = null;
    expect(await engine.run({ connectionId: 'gappy', connector })).toMatchObject({
      status: 'succeeded',
      counters: { deleted: 1 },
    });
  });
});

/** A platform that, for some documents, gives less than the document holds (a bitable with no rows). */
class PartialConnector extends MemoryConnector {
  heldBack = new Set<string>();

  override async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const fetched = await super.fetch(ref, signal);
    return this.heldBack.has(ref.externalId)
      ? {
          ...fetched,
          notice: {
            reason: 'feishu.bitable-no-rows',
            message: `"${ref.title}" returned no rows.`,
            params: { tables: ref.title },
          },
        }
      : fetched;
  }
}

describe('SyncEngine: documents indexed in part', () => {
  it('notes a document the platform gave in part, keeps the note while it is unchanged, and drops it once it reads whole', async () => {
    await insertConnection(db, 'partial');
    const connector = new PartialConnector();
    connector.put('tasks', '# Tasks\n\nheader only');
    connector.put('notes', '# Notes\n\nAll here.');
    connector.heldBack.add('tasks');
    const partialNotes = (run: { notes: { status: string }[] }) =>
      run.notes.filter((note) => note.status === 'partial');

    const first = await engine.run({ connectionId: 'partial', connector });
    expect(first).toMatchObject({ status: 'succeeded', counters: { added: 2, failed: 0 } });
    expect(partialNotes(first)).toEqual([
      {
        externalId: 'tasks',
        title: 'tasks',
        status: 'partial',
        code: 'feishu.bitable-no-rows',
        reason: '"tasks" returned no rows.',
        params: { tables: 'tasks' },
      },
    ]);

    // Nothing changed: the document is not read again, and the note stays on the run.
    const second = await engine.run({ connectionId: 'partial', connector });
    expect(second.counters).toMatchObject({ unchanged: 2, added: 0, updated: 0 });
    expect(partialNotes(second)).toEqual(partialNotes(first));
    expect((await listRuns(db, 'partial', 1))[0]!.notes).toEqual(second.notes);

    // The platform now gives the whole table: the next read clears the note.
    connector.heldBack.delete('tasks');
    connector.put('tasks', '# Tasks\n\n| a | b |\n| --- | --- |\n| 1 | 2 |');
    const third = await engine.run({ connectionId: 'partial', connector });
    expect(third.counters).toMatchObject({ updated: 1, unchanged: 1 });
    expect(partialNotes(third)).toEqual([]);
  });
});

describe('SyncEngine: a run whose every document failed the same way', () => {
  it('says why in the run error, with the reason the card names', async () => {
    await insertConnection(db, 'denied');
    const connector = new (class extends MemoryConnector {
      override async fetch(ref: DocumentRef): Promise<FetchedDocument> {
        throw new CairnError(
          'PERMISSION_DENIED',
          `The app lacks the permission Storage.File.Read (${ref.title}).`,
          {
            details: { reason: 'dingtalk.missing-permission', params: { permissions: 'Storage.File.Read' } },
          },
        );
      }
    })();
    connector.put('a', '# A');
    connector.put('b', '# B');
    const run = await engine.run({ connectionId: 'denied', connector });
    expect(run.status).toBe('failed');
    expect(run.error).toEqual({
      code: 'DOCUMENT_FAILED',
      message: expect.stringMatching(
        /^All 2 documents failed the same way \(first: "[ab]": The app lacks the permission Storage\.File\.Read \([ab]\)\.\)$/,
      ),
      details: { reason: 'dingtalk.missing-permission', params: { permissions: 'Storage.File.Read' } },
    });
    expect(run.errors.map((error) => error.params)).toEqual([
      { permissions: 'Storage.File.Read' },
      { permissions: 'Storage.File.Read' },
    ]);
  });
});
