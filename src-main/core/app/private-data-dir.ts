/**
 * The data directory is private: folders 0700, files 0600. Document text sits in PGlite's files
 * (tables and the write-ahead log), and PGlite writes them 0666 whatever the umask (its file system
 * layer sets the mode itself), so Cairn tightens the whole tree: when it opens, after every sync,
 * and when it closes. Files PGlite creates between two sweeps are still out of reach, because the
 * folders above them admit no one else. POSIX only; on Windows the per-user app-data folder's ACL
 * already keeps other users out.
 */
import { chmodSync, lstatSync, statSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CairnError } from '../errors';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Brings every folder and file under `root` (and `root` itself) to owner-only. Returns how many it changed. */
export async function makeTreePrivate(root: string): Promise<number> {
  if (process.platform === 'win32') return 0;
  let changed = 0;
  async function visit(path: string): Promise<void> {
    let info;
    try {
      info = await lstat(path);
    } catch {
      return; // removed meanwhile (a WAL segment recycled, a temp file renamed)
    }
    // A symlink's own mode means nothing, and its target may lie outside the data dir: leave both.
    if (info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((info.mode & 0o777) !== wanted) {
      await chmod(path, wanted).catch(() => undefined);
      changed += 1;
    }
    if (!info.isDirectory()) return;
    const entries = await readdir(path).catch(() => [] as string[]);
    // All at once: a database folder holds ~1,000 files, and one lstat after another (each a round trip
    // through libuv's thread pool) made the sweep ~1 s of every `cairn` command's exit on a loaded machine.
    await Promise.all(entries.map((entry) => visit(join(path, entry))));
  }
  await visit(root);
  return changed;
}

/** Makes the folder itself (not what it holds) owner-only; no-op on Windows. */
export function makeFolderPrivate(folder: string, onError: (error: unknown) => void): void {
  if (process.platform === 'win32') return;
  try {
    if ((statSync(folder).mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(folder, PRIVATE_DIR_MODE);
  } catch (error) {
    onError(error);
  }
}

/**
 * Folders Cairn (and PGlite, through Node) creates from now on are owner-only from the start.
 * The umask is per process: in the CLI, the headless host and Electron's main process, that
 * process is Cairn's own. Worker threads cannot set it; there the sweeps alone do the work.
 */
export function restrictUmask(): void {
  if (process.platform === 'win32') return;
  try {
    process.umask(process.umask() | 0o077);
  } catch {
    // not available in worker threads
  }
}

/** Sweeps on request, one at a time; a request during a sweep runs one more after it. */
export class PrivateTreeKeeper {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly root: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await makeTreePrivate(this.root).catch(this.onError);
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves when no sweep is running (tests and the CLI wait for it). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }
}

/** The current user's id, or null where the OS has none to compare (Windows). */
function currentUid(): number | null {
  return process.platform === 'win32' || typeof process.getuid !== 'function' ? null : process.getuid();
}

/**
 * Refuses a path another user owns: a data directory someone else prepared (even one open to all,
 * 0777) would hold their database, and an `instance.json` or socket planted in it would make
 * `cairn` hand the planted listener its calls, credentials and all (`cairn add --token`). The data
 * directory is checked through links (where it really is); a socket or an instance file is
 * checked as it is (a link is refused: Cairn never makes one). A path that does not exist passes.
 */
export function assertOwnedByUser(path: string, what: string, options: { followLinks?: boolean } = {}): void {
  const uid = currentUid();
  if (uid === null) return;
  let info;
  try {
    info = options.followLinks ? statSync(path) : lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!options.followLinks && info.isSymbolicLink())
    throw new CairnError('PERMISSION_DENIED', `The ${what} ${path} is a link; Cairn does not use it.`);
  if (info.uid !== uid)
    throw new CairnError(
      'PERMISSION_DENIED',
      `The ${what} ${path} belongs to another user (uid ${info.uid}); Cairn only uses a ${what} that you own.`,
      { details: { reason: 'data-dir.not-owned', path } },
    );
}
