/**
 * How much room the data directory takes on disk, and how much its volume has left: shown in
 * Settings and `cairn status`, and measured by the tests that check space is given back. Counted as
 * the disk counts it (allocated blocks, as `du` does), so a file with holes or a half-written one
 * counts for what it holds.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataDirStorage } from '@shared/models';
import { DiskSpace } from '../db/disk-space';
import { dataDirLayout } from './data-dir';

/** Bytes under `path` (a file or a folder, links not followed); 0 when it is missing. */
export async function diskUsage(path: string): Promise<number> {
  let stats;
  try {
    stats = await lstat(path);
  } catch {
    return 0;
  }
  const own = stats.blocks * 512;
  if (!stats.isDirectory()) return own;
  let names: string[];
  try {
    names = await readdir(path);
  } catch {
    return own;
  }
  const sizes = await Promise.all(names.map((name) => diskUsage(join(path, name))));
  return sizes.reduce((sum, size) => sum + size, own);
}

export async function measureDataDir(root: string): Promise<DataDirStorage> {
  const layout = dataDirLayout(root);
  const [totalBytes, databaseBytes] = await Promise.all([diskUsage(root), diskUsage(layout.database)]);
  const space = new DiskSpace(root).now();
  return {
    totalBytes,
    databaseBytes,
    freeBytes: Number.isFinite(space.freeBytes) ? space.freeBytes : null,
    volume: space.volume,
  };
}
