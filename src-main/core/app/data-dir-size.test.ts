import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageLine } from '../../cli/commands/status';
import { dataDirLayout } from './data-dir';
import { measureDataDir } from './data-dir-size';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-size-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the data directory size', () => {
  it('counts what the disk holds, the database apart, and `cairn status` says it', async () => {
    const layout = dataDirLayout(root);
    mkdirSync(join(layout.database, 'base'), { recursive: true });
    mkdirSync(layout.logs);
    const before = await measureDataDir(root);
    writeFileSync(join(layout.database, 'base', 'table'), randomBytes(3_000_000));
    writeFileSync(join(layout.logs, 'cairn.log'), randomBytes(1_000_000));
    const after = await measureDataDir(root);
    expect({
      total: after.totalBytes - before.totalBytes >= 4_000_000,
      database: after.databaseBytes - before.databaseBytes >= 3_000_000,
      databaseApart: after.databaseBytes < after.totalBytes - 1_000_000,
      free: after.freeBytes !== null && after.freeBytes > 0,
    }).toEqual({ total: true, database: true, databaseApart: true, free: true });
    // `cairn status`: "Data directory: <dir> · <this>".
    expect(
      storageLine({
        totalBytes: 48_200_000,
        databaseBytes: 41_000_000,
        freeBytes: 51_384_000_000,
        volume: '/home',
      }),
    ).toBe('48 MB on disk (index 41 MB), 51,384 MB free on /home');
  });
});
