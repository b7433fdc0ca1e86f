/**
 * Where a running Cairn instance listens: a Unix domain socket in the data directory (a named
 * pipe on Windows), and `instance.json` beside it naming the holder and the token a client must
 * show. Both sides compute the same address from the data directory alone, so discovery needs no
 * registry.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '../core/errors';

export interface InstanceEndpoint {
  /** What net.connect/listen take: a socket file path, or `\\.\pipe\…` on Windows. */
  address: string;
  /** True when `address` is a file this side may have to remove (a stale socket after a crash). */
  isFile: boolean;
  /** Owner-only JSON: pid, kind, start time and the connection token. */
  infoFile: string;
}

/**
 * sun_path holds 108 bytes on Linux and 104 on macOS, NUL included; a longer data-directory path
 * cannot hold its socket, which then goes to a private per-user folder under the temp directory.
 */
const MAX_SOCKET_PATH_BYTES = 100;

export function instanceEndpoint(
  dataDir: string,
  options: { platform?: NodeJS.Platform; tempDir?: string } = {},
): InstanceEndpoint {
  const platform = options.platform ?? process.platform;
  const infoFile = join(dataDir, 'instance.json');
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 20);
  if (platform === 'win32') {
    // Node cannot put an ACL on a pipe; the token in instance.json (in the user's own profile)
    // is what keeps other users out there: they may open the pipe but are never answered.
    return { address: `\\\\.\\pipe\\cairn-${digest}`, isFile: false, infoFile };
  }
  const inDataDir = join(dataDir, 'cairn.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH_BYTES)
    return { address: inDataDir, isFile: true, infoFile };
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return {
    address: join(options.tempDir ?? tmpdir(), `cairn-${uid}`, `${digest}.sock`),
    isFile: true,
    infoFile,
  };
}

/**
 * Creates the folder a socket goes into as owner-only, and refuses one that another user owns or
 * that others can enter (a shared /tmp folder someone prepared for us: a planted socket there
 * could impersonate Cairn).
 */
export function preparePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const stat = lstatSync(folder);
  const uid = typeof process.getuid === 'function' ? process.getuid() : stat.uid;
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
    throw new CairnError(
      'PERMISSION_DENIED',
      `${folder} must be a folder that only you can open (owner ${uid}, mode 0700) to hold Cairn's socket.`,
    );
}
