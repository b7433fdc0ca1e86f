/**
 * Where Cairn keeps its data, and the lock that keeps a second process out (data-dir-lock.ts):
 * PGlite must never be opened by two processes at once.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';
import { CairnError } from '../errors';
import { acquireLockFile, type DataDirLock, type LockOptions } from './data-dir-lock';

export interface DataDirChoice {
  path: string;
  source: 'flag' | 'env' | 'default';
}

/** The OS per-user app-data folder, e.g. ~/.local/share/Cairn on Linux, ~/Library/Application Support/Cairn on macOS. */
export function defaultDataDir(): string {
  return envPaths('Cairn', { suffix: '' }).data;
}

/** `--data-dir` beats `CAIRN_DATA_DIR`, which beats the OS default. Always an absolute path. */
export function resolveDataDir(
  options: { flag?: string; env?: NodeJS.ProcessEnv; defaultDir?: () => string } = {},
): DataDirChoice {
  if (options.flag !== undefined) return { path: absolute(options.flag, '--data-dir'), source: 'flag' };
  const fromEnv = (options.env ?? process.env)['CAIRN_DATA_DIR'];
  if (fromEnv !== undefined && fromEnv !== '')
    return { path: absolute(fromEnv, 'CAIRN_DATA_DIR'), source: 'env' };
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
  /** Installed local models (models/model-store.ts). */
  models: string;
  /** Connections and settings outside the database, so a lost database loses only the index (data-manifest.ts). */
  manifest: string;
  /** Which documents each sync has in hand (sync/crash-journal.ts). */
  syncJournal: string;
}

export function dataDirLayout(root: string): DataDirLayout {
  return {
    root,
    database: join(root, 'db'),
    secrets: join(root, 'secrets', 'secrets.json'),
    lock: join(root, 'cairn.lock'),
    logs: join(root, 'logs'),
    models: join(root, 'models'),
    manifest: join(root, 'manifest.json'),
    syncJournal: join(root, 'sync-journal'),
  };
}

export type { DataDirLock } from './data-dir-lock';

/** Takes the data directory's lock file (see data-dir-lock.ts); DATA_DIR_LOCKED while another live process holds it. */
export async function acquireDataDirLock(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  return acquireLockFile(dataDirLayout(resolve(dataDir)).lock, dataDir, options);
}
