/**
 * How current each result's indexed copy is: the source's own edit time, when Cairn last had it,
 * and whether it is known to have changed since (SearchHit.freshness). Known means:
 * - a local folder file: its modified time now is newer than the one indexed, or the file is gone
 *   (a stat per shown document: the only way to know without a sync);
 * - a platform document: a later sync's listing reported a newer edit time than the indexed copy
 *   has (`documents.listed_updated_at`, written by the sync when it plans a fetch, left behind
 *   when the fetch then failed or was deferred).
 * A platform edit made after the last listing cannot be known offline; the sync time says how old
 * the knowledge is.
 */
import { stat } from 'node:fs/promises';
import type { Freshness, Platform } from '@shared/models';
import type { Db } from '../db/database';

export interface DocumentTimes {
  /** The source's modified time of the indexed copy. */
  editedAt: Date | null;
  indexedAt: Date;
  /** A later listing's modified time, when it was newer than the indexed copy's. */
  listedAt: Date | null;
  /** The connection's last completed sync. */
  lastSyncAt: Date | null;
}

/** The times of these documents, by id: one statement. */
export async function readDocumentTimes(
  db: Pick<Db, 'query'>,
  documentIds: readonly number[],
): Promise<Map<number, DocumentTimes>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db.query<{
    id: string | number;
    remote_updated_at: Date | null;
    indexed_at: Date;
    listed_updated_at: Date | null;
    last_sync_at: Date | null;
  }>(
    `SELECT d.id, d.remote_updated_at, d.indexed_at, d.listed_updated_at, c.last_sync_at
     FROM documents d JOIN connections c ON c.id = d.connection_id WHERE d.id = ANY($1::bigint[])`,
    [documentIds],
  );
  return new Map(
    rows.rows.map((row) => [
      Number(row.id),
      {
        editedAt: toDate(row.remote_updated_at),
        indexedAt: toDate(row.indexed_at) ?? new Date(0),
        listedAt: toDate(row.listed_updated_at),
        lastSyncAt: toDate(row.last_sync_at),
      },
    ]),
  );
}

/** When the document was last modified, for sorting: its source's time, else when it was indexed. */
export function modifiedTime(times: DocumentTimes | undefined): number {
  return (times?.editedAt ?? times?.indexedAt)?.getTime() ?? 0;
}

/**
 * The freshness of one document. `path` is a folder document's file (its link, without a section
 * anchor), whose modified time is read now.
 */
export async function freshnessOf(
  times: DocumentTimes,
  source: { platform: Platform; path: string | null },
): Promise<Freshness> {
  const synced = times.lastSyncAt && times.lastSyncAt > times.indexedAt ? times.lastSyncAt : times.indexedAt;
  const freshness: Freshness = {
    editedAt: times.editedAt?.toISOString() ?? null,
    syncedAt: synced.toISOString(),
  };
  if (source.platform === 'folder' && source.path) {
    const changed = await fileChange(source.path, times.editedAt ?? times.indexedAt);
    if (changed) freshness.changed = changed;
  } else if (times.listedAt && (!times.editedAt || times.listedAt > times.editedAt)) {
    freshness.changed = { kind: 'platform-newer', at: times.listedAt.toISOString() };
  }
  return freshness;
}

async function fileChange(path: string, indexed: Date): Promise<Freshness['changed'] | null> {
  try {
    const { mtime } = await stat(path);
    // Whole seconds: some file systems and copies keep mtimes at second precision.
    return Math.floor(mtime.getTime() / 1000) > Math.floor(indexed.getTime() / 1000)
      ? { kind: 'file-modified', at: mtime.toISOString() }
      : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'file-missing', at: null } : null;
  }
}

/** A folder document's file from its link (a section anchor "#heading" dropped); null for anything else. */
export function folderFilePath(platform: Platform, url: string | null): string | null {
  if (platform !== 'folder' || !url || /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return null;
  return url.replace(/(\.(?:md|markdown|mdx))#[^/\\]*$/i, '$1');
}

function toDate(value: Date | string | null): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
