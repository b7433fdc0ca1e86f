/**
 * What a search's results carry beyond their rank: the query's operators applied in core, the
 * date order, and how current each result's copy is (freshness.ts), on a real database and real
 * files, with a real sync for the platform case.
 */
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { ensureActiveSpace } from '../index/embedding-spaces';
import { PgDocumentStore } from '../index/pg-document-store';
import { SyncEngine } from '../sync/sync-engine';
import { SyncLock } from '../sync/sync-lock';
import {
  CountingEmbedder,
  MemoryConnector,
  insertConnection,
  writeMarkdownDocument,
} from '../../testing/index-fixtures';
import { HybridSearch } from './hybrid-search';

let db: Db;
let store: PgDocumentStore;
let search: HybridSearch;
let folder: string;
const embedder = new CountingEmbedder();

const NOTES: Record<string, { markdown: string; edited: string }> = {
  'backup.md': {
    markdown: '# Backup\n\nBack up the data folder before you upgrade Cairn.',
    edited: '2026-02-01T00:00:00.000Z',
  },
  'upgrade.md': {
    markdown: '# Upgrade\n\nTo upgrade Cairn, install the new AppImage over the old one.',
    edited: '2026-04-01T00:00:00.000Z',
  },
  'windows.md': {
    markdown: '# Windows\n\nOn Windows, upgrade Cairn with the installer; the data folder stays.',
    edited: '2025-11-01T00:00:00.000Z',
  },
};

beforeAll(async () => {
  db = await openDatabase();
  await ensureActiveSpace(db, embedder.space);
  store = new PgDocumentStore(db);
  folder = await mkdtemp(join(tmpdir(), 'cairn-results-'));
  await insertConnection(db, 'notes');
  for (const [name, note] of Object.entries(NOTES)) {
    const path = join(folder, name);
    await writeFile(path, note.markdown);
    const edited = new Date(note.edited);
    await utimes(path, edited, edited);
    await writeMarkdownDocument(db, embedder, {
      connectionId: 'notes',
      externalId: name,
      title: name.replace('.md', ''),
      markdown: note.markdown,
      url: path,
      remoteUpdatedAt: (await stat(path)).mtime.toISOString(),
    });
  }
  search = new HybridSearch({ db, queryEmbedder: () => embedder });
});
afterAll(async () => {
  await db.close();
  await rm(folder, { recursive: true, force: true });
});

const titles = async (query: string, sort?: 'modified') =>
  (await search.search({ query, k: 10, ...(sort ? { sort } : {}) })).documents.map((d) => d.best.title);

describe('query operators, applied in core', () => {
  it('-word leaves out every document holding the word, and says what it read', async () => {
    expect((await titles('upgrade cairn')).sort()).toEqual(['backup', 'upgrade', 'windows']);
    const response = await search.search({ query: 'upgrade cairn -windows' });
    expect(response.documents.map((d) => d.best.title).sort()).toEqual(['backup', 'upgrade']);
    expect(response.operators).toEqual({ phrases: [], excluded: ['windows'] });
    expect(response.totalDocuments).toBe(2);
  });

  it('"exact phrase" keeps only passages holding it', async () => {
    expect(await titles('"data folder" upgrade')).toEqual(expect.arrayContaining(['backup', 'windows']));
    expect((await titles('"data folder" upgrade')).sort()).toEqual(['backup', 'windows']);
    expect(await titles('"before you upgrade"')).toEqual(['backup']);
  });
});

describe('sort', () => {
  it('by modified date: the same matching documents, newest first', async () => {
    expect(await titles('upgrade cairn', 'modified')).toEqual(['upgrade', 'backup', 'windows']);
    expect(await titles('upgrade cairn -upgrade', 'modified')).toEqual([]);
    expect(await titles('"data folder"', 'modified')).toEqual(['backup', 'windows']);
  });
});

describe('freshness', () => {
  it('carries the edit and sync times, and says when a folder file changed or went away since', async () => {
    const before = await search.search({ query: 'backup data folder' });
    const backup = before.documents.find((d) => d.best.title === 'backup')!.best;
    expect(backup.freshness).toEqual({ editedAt: NOTES['backup.md']!.edited, syncedAt: expect.any(String) });

    const later = new Date('2026-05-01T00:00:00.000Z');
    await utimes(join(folder, 'backup.md'), later, later);
    await rm(join(folder, 'windows.md'));
    const after = await search.search({ query: 'backup data folder' });
    const byTitle = new Map(after.documents.map((d) => [d.best.title, d.best.freshness]));
    expect(byTitle.get('backup')?.changed).toEqual({ kind: 'file-modified', at: later.toISOString() });
    expect(byTitle.get('windows')?.changed).toEqual({ kind: 'file-missing', at: null });
    expect(byTitle.get('upgrade')?.changed).toBeUndefined();
  });

  it('says a platform document changed when a sync listed a newer edit it could not fetch', async () => {
    await insertConnection(db, 'wiki', { platform: 'yuque' });
    const connector = new MemoryConnector();
    connector.put('policy', '# Expense policy\n\nExpenses above 500 need approval.', {
      remoteUpdatedAt: '2026-03-01T00:00:00.000Z',
    });
    const engine = new SyncEngine({ db, store, lock: new SyncLock(db) });
    expect((await engine.run({ connectionId: 'wiki', connector })).status).toBe('succeeded');
    const fresh = (await search.search({ query: 'expense policy' })).documents[0]!.best;
    expect(fresh.freshness).toEqual({
      editedAt: '2026-03-01T00:00:00.000Z',
      // The sync that wrote it completed after the write: its time is the sync time.
      syncedAt: expect.any(String),
    });

    // Edited on the platform; the next sync lists it, and its fetch fails.
    connector.put('policy', '# Expense policy\n\nExpenses above 800 need approval.', {
      remoteUpdatedAt: '2026-03-05T00:00:00.000Z',
    });
    connector.failFetch.add('policy');
    expect((await engine.run({ connectionId: 'wiki', connector })).status).not.toBe('succeeded');
    const stale = (await search.search({ query: 'expense policy' })).documents[0]!.best;
    expect(stale.text).toContain('500');
    expect(stale.freshness?.changed).toEqual({ kind: 'platform-newer', at: '2026-03-05T00:00:00.000Z' });

    // The next sync reads it: current again.
    connector.failFetch.clear();
    await engine.run({ connectionId: 'wiki', connector });
    const current = (await search.search({ query: 'expense policy' })).documents[0]!.best;
    expect([current.text.includes('800'), current.freshness?.changed]).toEqual([true, undefined]);
    expect(current.freshness?.editedAt).toBe('2026-03-05T00:00:00.000Z');
  });
});
