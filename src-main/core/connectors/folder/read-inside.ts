/**
 * Opening a listed file for reading without ever reading from outside the folder. The listing
 * checked each path's real location, but a file (or a folder above it) can be swapped for a link
 * to `/etc/…` between the listing and the read. So the check is made again on what is actually
 * open: open the path (non-blocking, so a FIFO swapped in cannot hang the sync), then resolve
 * the path's real location, check it lies inside the folder's real root, and check that the file
 * there is the very file open (same device and inode). What is read then comes from that open
 * handle, so a swap after the check changes nothing.
 */
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { CairnError } from '../../errors';
import { isInside } from './folder-walk';

export interface OpenedInside {
  handle: FileHandle;
  stats: Stats;
}

/** Thrown when the path now leads outside the folder (a link swapped in since the listing). */
export function outsideFolder(externalId: string, real: string): CairnError {
  return new CairnError(
    'DOCUMENT_FAILED',
    `${externalId} now leads outside the folder (to ${real}), so it is not read.`,
    { details: { reason: 'folder.link-outside' } },
  );
}

/** Opens `path` for reading if it is a regular file whose real location is inside `realRoot`; close the handle. */
export async function openInside(path: string, realRoot: string, externalId: string): Promise<OpenedInside> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new CairnError('DOCUMENT_FAILED', `Not a regular file: ${externalId}`);
    const real = await realpath(path);
    if (!isInside(realRoot, real)) throw outsideFolder(externalId, real);
    const there = await stat(real);
    if (there.dev !== stats.dev || there.ino !== stats.ino)
      throw new CairnError(
        'DOCUMENT_FAILED',
        `${externalId} was replaced while it was opened; it is read next time.`,
      );
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
