/**
 * The data directory's lock file: PGlite must never be opened by two processes at once (it is a
 * single-user Postgres; two writers corrupt it).
 *
 * Taking it is atomic: the lock's full content (pid, process start time, a random token) is
 * written to a private temp file first and then hard-linked into place, and link(2) fails with
 * EEXIST when the name exists, so there is never a moment when the lock exists but is empty or
 * half written for a racer to misread as stale (the earlier `open(wx)`-then-write left exactly
 * that window). A lock whose holder is gone (the pid is dead, or alive but started at another
 * time: a reused pid) is removed only under a second, short-lived "takeover" lock, and only if it
 * still holds the same stale content, so two processes taking over one stale lock cannot delete
 * each other's fresh one.
 *
 * proper-lockfile was considered and not used: it judges staleness by an mtime a timer keeps
 * touching, so a holder whose event loop stalls (PGlite's WASM runs on the main thread) can lose
 * its lock to a second process, while on one host the pid and its start time say exactly whether
 * the holder is alive. Its stale-lock removal also races the way described above.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError } from '../errors';

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** @default isProcessAlive */
  isAlive?: (pid: number) => boolean;
  /** When a process started, in the OS's own units, or null where it cannot tell. @default processStartTime */
  startTimeOf?: (pid: number) => Promise<string | null>;
  /** How long to keep trying while other processes race for the lock. @default 5000 */
  patienceMs?: number;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  /** The holder's process start time (Linux: /proc/<pid>/stat field 22), to tell a reused pid. */
  processStart: string | null;
  startedAt: string;
}

const heldInThisProcess = new Set<string>();

/**
 * Takes the lock file at `path`. A lock held by a live process gives DATA_DIR_LOCKED naming its
 * pid; a lock left by a dead process is taken over.
 */
export async function acquireLockFile(
  path: string,
  what: string,
  options: LockOptions = {},
): Promise<DataDirLock> {
  const isAlive = options.isAlive ?? isProcessAlive;
  const startTimeOf = options.startTimeOf ?? processStartTime;
  const deadline = Date.now() + (options.patienceMs ?? 5_000);
  if (heldInThisProcess.has(path))
    throw new CairnError('DATA_DIR_LOCKED', `The data directory ${what} is already open in this process.`);
  await mkdir(resolve(path, '..'), { recursive: true });
  const mine = await lockContent(startTimeOf);
  const text = JSON.stringify(mine);
  const holderAlive = async (holder: LockContent | null): Promise<boolean> => {
    if (!holder) return false; // not written by an atomic create: a crash of an older version
    if (holder.host !== mine.host) return true; // another machine's process cannot be checked: assume alive
    // Our own pid in a lock this process does not hold: left by an earlier process that had our pid.
    if (holder.pid === process.pid || !isAlive(holder.pid)) return false;
    const now = holder.processStart === null ? null : await startTimeOf(holder.pid);
    return now === null || now === holder.processStart;
  };

  for (let attempt = 0; ; attempt++) {
    if (attempt > 0 && Date.now() > deadline)
      throw new CairnError(
        'DATA_DIR_LOCKED',
        `Could not take the lock ${path}: other processes keep racing for it.`,
      );
    if (await linkInPlace(path, text)) {
      heldInThisProcess.add(path);
      return lockHandle(path, text);
    }
    const existing = await readText(path);
    if (existing === null) continue; // released between our link and read: try again
    const holder = parseLock(existing);
    if (await holderAlive(holder)) {
      const where = holder!.host !== mine.host ? ` on ${holder!.host}` : '';
      throw new CairnError(
        'DATA_DIR_LOCKED',
        `The data directory ${what} is in use by another Cairn process (pid ${holder!.pid}${where}). Close it first, or use another --data-dir. If that process is gone, delete ${path}.`,
        { details: { pid: holder!.pid } },
      );
    }
    await withTakeoverLock(path, text, deadline, holderAlive, async () => {
      // Still the same stale lock? Nothing else can replace it meanwhile: creating needs the name
      // free, and removing needs the takeover lock, which we hold.
      if ((await readText(path)) === existing) await unlink(path).catch(() => undefined);
    });
  }
}

/**
 * Runs `work` while holding `<lock>.takeover`. It is held for a read and an unlink, so a live
 * holder is waited for; one left by a process that died inside those few system calls is moved
 * aside. (Two processes moving one such dead takeover lock aside at once could still collide:
 * that needs a crash inside a microseconds-long window and then a three-way race.)
 */
async function withTakeoverLock(
  path: string,
  text: string,
  deadline: number,
  holderAlive: (holder: LockContent | null) => Promise<boolean>,
  work: () => Promise<void>,
): Promise<void> {
  const guard = `${path}.takeover`;
  for (;;) {
    if (await linkInPlace(guard, text)) {
      try {
        return await work();
      } finally {
        if ((await readText(guard)) === text) await unlink(guard).catch(() => undefined);
      }
    }
    const existing = await readText(guard);
    if (existing === null) continue;
    if (await holderAlive(parseLock(existing))) {
      if (Date.now() > deadline)
        throw new CairnError(
          'DATA_DIR_LOCKED',
          `Could not take over the stale lock ${path}: ${guard} stays held.`,
        );
      await sleep(5 + Math.random() * 20);
      continue;
    }
    await moveAsideIfUnchanged(guard, existing);
  }
}

/** Writes `text` to a private temp file, then links it to `path`: false when `path` exists. */
async function linkInPlace(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { encoding: 'utf8', mode: 0o600, flush: true });
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new CairnError('INTERNAL', `Cannot create the lock file ${path}: ${(error as Error).message}`);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Renames `path` aside (only one racer's rename succeeds); if what moved is not `expected`, puts it back. */
async function moveAsideIfUnchanged(path: string, expected: string): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((await readText(aside)) !== expected) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

async function readText(path: string): Promise<string | null> {
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
    if (
      typeof value.pid !== 'number' ||
      !Number.isInteger(value.pid) ||
      value.pid <= 0 ||
      typeof value.host !== 'string'
    )
      return null;
    return {
      ...(value as LockContent),
      processStart: typeof value.processStart === 'string' ? value.processStart : null,
    };
  } catch {
    return null;
  }
}

async function lockContent(startTimeOf: (pid: number) => Promise<string | null>): Promise<LockContent> {
  return {
    pid: process.pid,
    host: hostname(),
    token: randomBytes(8).toString('hex'),
    processStart: await startTimeOf(process.pid),
    startedAt: new Date().toISOString(),
  };
}

function lockHandle(path: string, text: string): DataDirLock {
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      heldInThisProcess.delete(path);
      if ((await readText(path).catch(() => null)) === text) await unlink(path).catch(() => undefined);
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

/**
 * The process's start time in clock ticks since boot: field 22 of /proc/<pid>/stat (see proc(5)),
 * counted after the parenthesised command name, which may itself hold spaces. Null off Linux or
 * when the process is gone; the lock then falls back to the pid alone.
 */
export async function processStartTime(pid: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
