/**
 * Decides whether a link from the UI may be opened by the OS. Only http(s) URLs, and files that
 * lie inside a local-folder connection's root, are allowed: a synced document must not be able
 * to make Cairn open an arbitrary program or path (javascript:, file:///etc/…, smb://, …).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CairnError } from '../errors';

export type OpenTarget = { kind: 'url'; url: string } | { kind: 'path'; path: string };

/**
 * What a link names, in the one form that is both checked and opened: a normalised http(s) URL,
 * or an absolute path with `.` and `..` resolved. The shell must open this form, never the raw
 * string, or the check and the OS could read one link two ways (e.g. `dir/symlink/../x`).
 */
export function parseOpenTarget(link: string): OpenTarget {
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
  // A hit's link to a section of a Markdown file ("/notes/a.md#install"): the OS opens the file.
  if (path) path = path.replace(/(\.(?:md|markdown|mdx))#[^/\\]*$/i, '$1');
  if (path) return { kind: 'path', path: resolve(path) };
  throw new CairnError(
    'INVALID_ARGUMENT',
    'Cairn only opens http(s) links and files from your local folders.',
  );
}

/** The string to hand the OS opener for a parsed target. */
export function openTargetString(target: OpenTarget): string {
  return target.kind === 'url' ? target.url : target.path;
}

export function resolveOpenTarget(link: string, folderRoots: string[]): OpenTarget {
  const target = parseOpenTarget(link);
  if (target.kind === 'url') return target;
  const inside = folderRoots.some((root) => {
    const rel = relative(resolve(root), target.path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
  });
  if (inside) return target;
  throw new CairnError(
    'PERMISSION_DENIED',
    'Cairn only opens files that belong to one of your local-folder connections.',
  );
}
