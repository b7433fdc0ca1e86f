/**
 * Free space on the volume that holds the database, and the room Cairn keeps there. PGlite cannot
 * survive running out: when Postgres cannot create its next write-ahead-log segment (16 MB, written
 * whole) it PANICs, and the next statement spins in WebAssembly forever, holding the thread (so no
 * signal handler runs either). So writes are refused before they would eat into a reserve of two
 * such segments (one for the log to go on, one for the recovery a restart runs), and the sentence
 * says where and how much: "Disk full: 12 MB free on /home; the index is unchanged."
 */
import { statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CairnError } from '../errors';

/**
 * The largest log segment a data directory can have: PGlite's initdb default (--wal-segsize 16), which
 * databases made before 1 MB segments (database-settings.ts) keep.
 */
export const WAL_SEGMENT_BYTES = 16 * 1024 * 1024;

/** What Cairn leaves free for the database itself: the log's next segment and a restart's recovery. */
export const DATABASE_RESERVE_BYTES = 2 * WAL_SEGMENT_BYTES;

/**
 * What one chunk costs on disk while it is written: its vector (4 bytes a dimension) and the rest
 * (text, keyword rows, HNSW entry, log). Measured: a sync of 400 notes (800 chunks of ~1.5 KB,
 * 1024 dimensions) grew the database folder by 7.1 MB, 8.9 KB a chunk; this says 10 KB.
 */
export function chunkBytesEstimate(chunks: number, dimensions: number): number {
  return chunks * (CHUNK_BYTES_BESIDE_VECTOR + 4 * dimensions);
}
const CHUNK_BYTES_BESIDE_VECTOR = 6 * 1024;

/**
 * A changed document before it is fetched (its size is not known yet). Measured 17.7 KB a note of
 * two chunks; this allows for longer documents and stays low enough not to refuse a sync that
 * would fit (the check before each write catches what it misses).
 */
export const DOCUMENT_BYTES_ESTIMATE = 32 * 1024;

export type StatFs = (path: string) => { bavail: number | bigint; bsize: number | bigint };

export interface VolumeSpace {
  freeBytes: number;
  /** The volume's mount point (what `df` names), e.g. "/home". */
  volume: string;
}

/** "12 MB" (decimal megabytes, as disk tools on macOS and Windows count). */
export function megabytes(bytes: number): string {
  return `${Math.max(0, Math.floor(bytes / 1_000_000)).toLocaleString('en')} MB`;
}

/** The mount point of `path`: the topmost folder above it on the same device. */
export function mountPointOf(path: string): string {
  let current = resolve(path);
  try {
    while (!existsOrFalse(current)) current = dirname(current);
    const device = statSync(current).dev;
    for (;;) {
      const parent = dirname(current);
      if (parent === current || statSync(parent).dev !== device) return current;
      current = parent;
    }
  } catch {
    return current;
  }
}

function existsOrFalse(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

export class DiskSpace {
  private mountPoint: string | null = null;

  constructor(
    /** A folder on the volume (the database folder; its nearest existing parent is asked). */
    readonly folder: string,
    private readonly statfs: StatFs = statfsSync,
    /** @default DATABASE_RESERVE_BYTES */
    readonly reserveBytes: number = DATABASE_RESERVE_BYTES,
  ) {}

  now(): VolumeSpace {
    this.mountPoint ??= mountPointOf(this.folder);
    let path = resolve(this.folder);
    while (!existsOrFalse(path) && dirname(path) !== path) path = dirname(path);
    try {
      const stats = this.statfs(path);
      return { freeBytes: Number(stats.bavail) * Number(stats.bsize), volume: this.mountPoint };
    } catch {
      // A volume that cannot say (a network share) is not refused for it.
      return { freeBytes: Number.POSITIVE_INFINITY, volume: this.mountPoint };
    }
  }

  /** True while less than the reserve is free: nothing large is written then. */
  low(): boolean {
    return this.now().freeBytes < this.reserveBytes;
  }

  /**
   * Throws DISK_FULL unless `bytes` more fit with the reserve still free. `outcome` ends the
   * sentence (what the refusal left as it was).
   */
  ensure(bytes: number, outcome = 'the index is unchanged.'): void {
    const space = this.now();
    if (space.freeBytes - Math.max(0, bytes) >= this.reserveBytes) return;
    throw diskFullError(space, outcome, { neededBytes: Math.ceil(bytes) + this.reserveBytes });
  }
}

export function diskFullError(
  space: VolumeSpace,
  outcome: string,
  extra: { neededBytes?: number; cause?: unknown } = {},
): CairnError {
  const needs = extra.neededBytes ? ` (this needs about ${megabytes(extra.neededBytes)})` : '';
  return new CairnError(
    'DISK_FULL',
    `Disk full: ${megabytes(space.freeBytes)} free on ${space.volume}${needs}; ${outcome}`,
    {
      details: {
        volume: space.volume,
        freeBytes: Number.isFinite(space.freeBytes) ? space.freeBytes : null,
        ...(extra.neededBytes ? { neededBytes: extra.neededBytes } : {}),
      },
      ...(extra.cause === undefined ? {} : { cause: extra.cause }),
    },
  );
}
