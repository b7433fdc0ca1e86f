/**
 * Where Cairn keeps its data, and the lock that keeps a second process out: PGlite must never be
 * opened by two processes at once (it is a single-user Postgres; two writers corrupt it).
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';
import { CairnError } from '../errors';

export interface DataDirChoice {
  path: string;
  source: 'flag' | 'env' | 'default';
}

/** The OS per-user app-data folder, e.g. ~/.local/share/Cairn on Linux, ~/Library/Application Support/Cairn on macOS. */
export function defaultDataDir(): string {
  return envPaths('Cairn', { suffix: '' }).data;
}

/** `--data-dir` beats `CAIRN_DATA_DIR`, which beats the OS default. Always an absolute path. */
export function resolveDataDir(options: { flag?: string; env?: NodeJS.ProcessEnv; defaultDir?: () => string } = {}): DataDirChoice {
  if (options.flag !== undefined) return { path: absolute(options.flag, '--data-dir'), source: 'flag' };
  const fromEnv = (options.env ?? process.env)['CAIRN_DATA_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') return { path: absolute(fromEnv, 'CAIRN_DATA_DIR'), source: 'env' };
  return { path: resolve((options.defaultDir ?? defaultDataDir)()), source: 'default' };
}

function absolute(path: string, origin: string): string {
  if (!path.trim()) throw new CairnError('INVALID_ARGUMENT', `${origin} is empty: give a folder path.`);
  // `--data-dir=~/x` reaches us unexpanded because the shell only expands a leading ~ in a word.
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  return resolve(expanded);
}

/** The fixed layout inside a data directory. */
export interface DataDirLayout {
  root: string;
  /** PGlite's own directory. */
  database: string;
  /** Headless secret file (FileSecretStore); its folder is created owner-only. */
  secrets: string;
  lock: string;
  logs: string;
}

export function dataDirLayout(root: string): DataDirLayout {
  return { root, database: join(root, 'db'), secrets: join(root, 'secrets', 'secrets.json'), lock: join(root, 'cairn.lock'), logs: join(root, 'logs') };
}

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  startedAt: string;
}

const heldInThisProcess = new Set<string>();

/**
 * Takes the data directory's lock file (created exclusively, holding our pid). A lock held by a
 * live process gives DATA_DIR_LOCKED naming its pid; a lock left by a dead process is taken over.
 */
export async function acquireDataDirLock(dataDir: string, options: { isAlive?: (pid: number) => boolean } = {}): Promise<DataDirLock> {
  const isAlive = options.isAlive ?? isProcessAlive;
  const path = dataDirLayout(resolve(dataDir)).lock;
  if (heldInThisProcess.has(path)) throw new CairnError('DATA_DIR_LOCKED', `The data directory ${dataDir} is already open in this process.`);
  await mkdir(resolve(dataDir), { recursive: true });
  const mine: LockContent = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), startedAt: new Date().toISOString() };
  const text = JSON.stringify(mine);

  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusive(path, text)) {
      heldInThisProcess.add(path);
      return lockHandle(path, text);
    }
    const existing = await readLock(path);
    if (existing === null) continue; // removed between our create and read: try again
    const holder = parseLock(existing);
    const foreignHost = holder !== null && holder.host !== mine.host;
    const alive = holder !== null && (foreignHost || (holder.pid !== process.pid && isAlive(holder.pid)));
    if (alive) {
      const where = foreignHost ? ` on ${holder.host}` : '';
      throw new CairnError(
        'DATA_DIR_LOCKED',
        `The data directory ${dataDir} is in use by another Cairn process (pid ${holder.pid}${where}). Close it first, or use another --data-dir. If that process is gone, delete ${path}.`,
        { details: { pid: holder.pid } },
      );
    }
    await removeStaleLock(path, existing);
  }
  throw new CairnError('DATA_DIR_LOCKED', `Could not take the lock ${path}: other processes keep racing for it.`);
}

async function createExclusive(path: string, text: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new CairnError('INTERNAL', `Cannot create the lock file ${path}: ${(error as Error).message}`);
  }
}

async function readLock(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseLock(text: string): LockContent | null {
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    return typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 && typeof value.host === 'string' ? (value as LockContent) : null;
  } catch {
    return null; // half-written by a process that died while creating it: stale
  }
}

/**
 * Moves the stale lock aside atomically (only one racer's rename succeeds). If what we moved is
 * no longer the stale content, another process took the lock meanwhile: we put it back untouched.
 */
async function removeStaleLock(path: string, staleText: string): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== staleText) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function lockHandle(path: string, text: string): DataDirLock {
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      heldInThisProcess.delete(path);
      if ((await readLock(path).catch(() => null)) === text) await unlink(path).catch(() => undefined);
    },
  };
}

/** Signal 0 checks existence without touching the process; EPERM means it exists but is not ours. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
