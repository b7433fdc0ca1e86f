/**
 * A file of DATABASE_RESERVE_BYTES kept beside the database while the disk has room, given back
 * when it has none. Cairn's own writes stop before they eat into the reserve (disk-space.ts), but
 * another program can fill the disk to the last byte; then the database, which must write a new
 * log segment to start again after a PANIC (database-health.ts), would have nowhere to do it. With
 * this file deleted there is room to open the index and serve searches until space is freed.
 */
import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { DATABASE_RESERVE_BYTES, type DiskSpace } from './disk-space';

/** Only made when this much more than the reserve is free: it must never be what fills a disk. */
const CREATE_ABOVE_BYTES = 4 * DATABASE_RESERVE_BYTES;

export function spaceReservePath(databaseFolder: string): string {
  return `${databaseFolder}.reserve`;
}

/** Gives the reserve back to the volume; true when there was one. */
export function releaseSpaceReserve(databaseFolder: string): boolean {
  const path = spaceReservePath(databaseFolder);
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
}

/** Makes the reserve when the volume has ample room and it is missing (or short). Never throws. */
export function keepSpaceReserve(databaseFolder: string, space: DiskSpace): void {
  const path = spaceReservePath(databaseFolder);
  try {
    if (existsSync(path) && statSync(path).size >= DATABASE_RESERVE_BYTES) return;
    if (space.now().freeBytes < CREATE_ABOVE_BYTES) return;
    // Bytes that do not compress, so a file system that compresses or skips zeros still sets the
    // space aside.
    const block = randomBytes(1024 * 1024);
    const fd = openSync(path, 'w', 0o600);
    try {
      for (let written = 0; written < DATABASE_RESERVE_BYTES; written += block.length) writeSync(fd, block);
    } finally {
      closeSync(fd);
    }
  } catch {
    rmSync(path, { force: true });
  }
}
