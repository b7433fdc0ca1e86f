/**
 * Decides whether a link from the UI may be opened by the OS. Only http(s) URLs, and files that
 * lie inside a local-folder connection's root, are allowed: a synced document must not be able
 * to make Cairn open an arbitrary program or path (javascript:, file:///etc/…, smb://, …).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CairnError } from '../errors';

export type OpenTarget = { kind: 'url'; url: string } | { kind: 'path'; path: string };

export function resolveOpenTarget(link: string, folderRoots: string[]): OpenTarget {
  const trimmed = link.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      return { kind: 'url', url: new URL(trimmed).toString() };
    } catch {
      throw new CairnError('INVALID_ARGUMENT', 'That link is not a valid web address.');
    }
  }
  let path: string | null = null;
  if (/^file:\/\//i.test(trimmed)) {
    try {
      path = fileURLToPath(trimmed);
    } catch {
      path = null;
    }
  } else if (isAbsolute(trimmed)) {
    path = trimmed;
  }
  if (path) {
    const target = resolve(path);
    const inside = folderRoots.some((root) => {
      const rel = relative(resolve(root), target);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
    });
    if (inside) return { kind: 'path', path: target };
    throw new CairnError('PERMISSION_DENIED', 'Cairn only opens files that belong to one of your local-folder connections.');
  }
  throw new CairnError('INVALID_ARGUMENT', 'Cairn only opens http(s) links and files from your local folders.');
}
