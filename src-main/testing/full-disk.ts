/**
 * A volume that runs out of space, for tests, at the file-system layer (no mount needed): Node's fs
 * is patched so that, once the volume under `folder` is filled, writes there that grow a file (or
 * make one) spend what is left and then fail with ENOSPC, as on a full disk, while a write over a
 * file's existing bytes still succeeds (its blocks are already there); deleting a file there gives
 * its size back, and statfs reports what is left. PGlite's
 * file system (Emscripten's NODEFS) calls Node's fs module object, so the database meets the same
 * failures as Cairn's own writes; ESM importers of node:fs are updated with syncBuiltinESMExports.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';

export interface FullDisk {
  /**
   * From now on growing writes fail, and statfs says `freeBytes` are left; with `unseen`, statfs
   * still tells the truth (the disk filled between a check and a write).
   */
  fill(freeBytes?: number, options?: { unseen?: boolean }): void;
  /** Space again: writes go through and statfs tells the truth. */
  free(): void;
  readonly full: boolean;
  /** Writes refused with ENOSPC so far. */
  readonly refused: number;
  /** Puts Node's fs back as it was. */
  restore(): void;
}

function enospc(syscall: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}${path ? ` '${path}'` : ''}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
    ...(path ? { path } : {}),
  });
}

export function simulateFullDisk(folder: string): FullDisk {
  const root = resolve(folder);
  const inside = (path: fs.PathLike | number): boolean => {
    if (typeof path === 'number') return false;
    const full = resolve(path.toString());
    return full === root || full.startsWith(root + sep);
  };
  const original = {
    openSync: fs.openSync,
    closeSync: fs.closeSync,
    writeSync: fs.writeSync,
    writeFileSync: fs.writeFileSync,
    appendFileSync: fs.appendFileSync,
    mkdirSync: fs.mkdirSync,
    rmSync: fs.rmSync,
    unlinkSync: fs.unlinkSync,
    statfsSync: fs.statfsSync,
  };
  const tracked = new Map<number, string>();
  let freeBytes: number | null = null;
  let unseen = false;
  let refused = 0;
  const refuse = (syscall: string, path?: string) => {
    refused += 1;
    return enospc(syscall, path);
  };
  /** Spends `growth` bytes of what is left, or throws ENOSPC. */
  const spend = (growth: number, syscall: string, path?: string) => {
    if (freeBytes === null || growth <= 0) return;
    if (growth > freeBytes) throw refuse(syscall, path);
    freeBytes -= growth;
  };
  const sizeOf = (path: fs.PathLike): number => {
    try {
      const stats = fs.statSync(path);
      return stats.isFile() ? stats.size : 0;
    } catch {
      return 0;
    }
  };
  const giveBack = (path: fs.PathLike) => {
    if (freeBytes !== null && inside(path)) freeBytes += sizeOf(path);
  };

  const patched = {
    openSync: ((path: fs.PathLike, ...rest: unknown[]) => {
      const fd = (original.openSync as (...args: unknown[]) => number)(path, ...rest);
      if (inside(path)) tracked.set(fd, path.toString());
      return fd;
    }) as typeof fs.openSync,
    closeSync: ((fd: number) => {
      tracked.delete(fd);
      original.closeSync(fd);
    }) as typeof fs.closeSync,
    writeSync: ((fd: number, buffer: unknown, ...rest: unknown[]) => {
      if (freeBytes !== null && tracked.has(fd)) {
        // writeSync(fd, buffer, offset, length, position) or writeSync(fd, string, position).
        const [a, b, c] = rest as (number | null | undefined)[];
        const isString = typeof buffer === 'string';
        const length = isString
          ? Buffer.byteLength(buffer)
          : (b ?? (buffer as Uint8Array).byteLength - (a ?? 0));
        const position = isString ? a : c;
        const size = fs.fstatSync(fd).size;
        spend(typeof position === 'number' ? position + length - size : length, 'write', tracked.get(fd));
      }
      return (original.writeSync as (...args: unknown[]) => number)(fd, buffer, ...rest);
    }) as typeof fs.writeSync,
    writeFileSync: ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (typeof path !== 'number' && inside(path))
        spend(byteLength(rest[0]) - sizeOf(path), 'write', path.toString());
      return (original.writeFileSync as (...args: unknown[]) => void)(path, ...rest);
    }) as typeof fs.writeFileSync,
    appendFileSync: ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (typeof path !== 'number' && inside(path)) spend(byteLength(rest[0]), 'write', path.toString());
      return (original.appendFileSync as (...args: unknown[]) => void)(path, ...rest);
    }) as typeof fs.appendFileSync,
    mkdirSync: ((path: fs.PathLike, ...rest: unknown[]) => {
      if (freeBytes !== null && inside(path) && !fs.existsSync(path)) spend(4096, 'mkdir', path.toString());
      return (original.mkdirSync as (...args: unknown[]) => string | undefined)(path, ...rest);
    }) as typeof fs.mkdirSync,
    rmSync: ((path: fs.PathLike, ...rest: unknown[]) => {
      giveBack(path);
      return (original.rmSync as (...args: unknown[]) => void)(path, ...rest);
    }) as typeof fs.rmSync,
    unlinkSync: ((path: fs.PathLike) => {
      giveBack(path);
      original.unlinkSync(path);
    }) as typeof fs.unlinkSync,
    statfsSync: ((path: fs.PathLike, ...rest: unknown[]) => {
      const stats = (original.statfsSync as (...args: unknown[]) => fs.StatsFs)(path, ...rest);
      if (freeBytes === null || unseen || !inside(path)) return stats;
      const blocks = Math.floor(freeBytes / Number(stats.bsize));
      return Object.assign(Object.create(Object.getPrototypeOf(stats) as object) as fs.StatsFs, stats, {
        bavail: typeof stats.bavail === 'bigint' ? BigInt(blocks) : blocks,
        bfree: typeof stats.bfree === 'bigint' ? BigInt(blocks) : blocks,
      });
    }) as typeof fs.statfsSync,
  };
  Object.assign(fs, patched);
  syncBuiltinESMExports();

  return {
    fill(bytes = 0, options = {}) {
      freeBytes = Math.max(0, bytes);
      unseen = options.unseen === true;
    },
    free() {
      freeBytes = null;
    },
    get full() {
      return freeBytes !== null;
    },
    get refused() {
      return refused;
    },
    restore() {
      Object.assign(fs, original);
      syncBuiltinESMExports();
      tracked.clear();
    },
  };
}

function byteLength(data: unknown): number {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (ArrayBuffer.isView(data)) return data.byteLength;
  return 0;
}
