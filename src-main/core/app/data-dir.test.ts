import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { acquireDataDirLock, dataDirLayout, defaultDataDir, resolveDataDir } from './data-dir';

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-datadir-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveDataDir', () => {
  it('prefers --data-dir, then CAIRN_DATA_DIR, then the OS per-user folder', () => {
    const env = { CAIRN_DATA_DIR: '/from/env' };
    expect([
      resolveDataDir({ flag: 'rel/dir', env }),
      resolveDataDir({ flag: '~/cairn', env }),
      resolveDataDir({ env }),
      resolveDataDir({ env: { CAIRN_DATA_DIR: '' }, defaultDir: () => '/os/default' }),
    ]).toEqual([
      { path: resolve('rel/dir'), source: 'flag' },
      { path: join(homedir(), 'cairn'), source: 'flag' },
      { path: '/from/env', source: 'env' },
      { path: '/os/default', source: 'default' },
    ]);
    expect(() => resolveDataDir({ flag: ' ' })).toThrow('--data-dir is empty: give a folder path.');
  });

  it.runIf(process.platform === 'linux')('uses ~/.local/share/Cairn (or XDG_DATA_HOME) on Linux', () => {
    const xdg = process.env['XDG_DATA_HOME'];
    expect(defaultDataDir()).toBe(join(xdg || join(homedir(), '.local', 'share'), 'Cairn'));
  });

  it('lays out the database, secrets, lock, logs, local models, the manifest and the sync journal inside the folder', () => {
    expect(dataDirLayout('/d')).toEqual({
      root: '/d',
      database: '/d/db',
      secrets: '/d/secrets/secrets.json',
      lock: '/d/cairn.lock',
      logs: '/d/logs',
      models: '/d/models',
      manifest: '/d/manifest.json',
      syncJournal: '/d/sync-journal',
    });
  });
});

describe('acquireDataDirLock', () => {
  async function lockedBy(dir: string): Promise<{ code: string; message: string } | null> {
    try {
      const lock = await acquireDataDirLock(dir);
      await lock.release();
      return null;
    } catch (error) {
      if (error instanceof CairnError) return { code: error.code, message: error.message };
      throw error;
    }
  }

  it('writes our pid, refuses a second holder in this process, and releases', async () => {
    const dir = join(base, 'one');
    const lock = await acquireDataDirLock(dir);
    expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    expect(await lockedBy(dir)).toEqual({
      code: 'DATA_DIR_LOCKED',
      message: `The data directory ${dir} is already open in this process.`,
    });
    await lock.release();
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a directory locked by another live process, naming its pid', async () => {
    const dir = join(base, 'two');
    const lock = await acquireDataDirLock(dir);
    await lock.release();
    // The test runner's parent process is alive and is not us.
    await writeFile(
      lock.path,
      JSON.stringify({ pid: process.ppid, host: hostname(), token: 't', startedAt: 'x' }),
    );
    const refused = await lockedBy(dir);
    expect(refused?.code).toBe('DATA_DIR_LOCKED');
    expect(refused?.message).toContain(`in use by another Cairn process (pid ${process.ppid})`);
    expect(JSON.parse(await readFile(lock.path, 'utf8')).pid).toBe(process.ppid);
  });

  it('takes over a lock left by a dead process or half written', async () => {
    const dir = join(base, 'three');
    const path = dataDirLayout(dir).lock;
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    if (!deadPid) throw new Error('no child pid');
    await acquireDataDirLock(dir).then((lock) => lock.release());
    await writeFile(path, JSON.stringify({ pid: deadPid, host: hostname(), token: 't', startedAt: 'x' }));
    const lock = await acquireDataDirLock(dir);
    expect(JSON.parse(await readFile(path, 'utf8')).pid).toBe(process.pid);
    await lock.release();
    await writeFile(path, '{"pid": 12');
    const again = await acquireDataDirLock(dir);
    expect(JSON.parse(await readFile(path, 'utf8')).pid).toBe(process.pid);
    await again.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('does not delete a lock that another process took after ours was removed', async () => {
    const dir = join(base, 'four');
    const lock = await acquireDataDirLock(dir);
    const theirs = JSON.stringify({ pid: process.ppid, host: hostname(), token: 'theirs', startedAt: 'x' });
    await writeFile(lock.path, theirs);
    await lock.release();
    expect(await readFile(lock.path, 'utf8')).toBe(theirs);
  });
});
