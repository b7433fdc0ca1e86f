/**
 * Decides whether a link from the UI may be opened by the OS. Only http(s) URLs, and files that
 * lie inside a local-folder connection's root, are allowed: a synced document must not be able
 * to make Cairn open an arbitrary program or path (javascript:, file:///etc/…, smb://, …).
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CairnError } from '../errors';

export type OpenTarget =
  | { kind: 'url'; url: string }
  | { kind: 'path'; path: string }
  | { kind: 'obsidian'; url: string; vault: string; file: string };

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
  if (/^obsidian:\/\//i.test(trimmed)) {
    // Only "open a note of a vault" (https://help.obsidian.md/Extending+Obsidian/Obsidian+URI).
    let parsed: URL | null = null;
    try {
      parsed = new URL(trimmed);
    } catch {
      parsed = null;
    }
    const vault = parsed?.searchParams.get('vault') ?? '';
    const file = parsed?.searchParams.get('file') ?? '';
    if (!parsed || parsed.host !== 'open' || !vault || !file || file.split('/').includes('..'))
      throw new CairnError('INVALID_ARGUMENT', 'Cairn only opens notes of your Obsidian vaults.');
    const url = `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent(file)}`;
    return { kind: 'obsidian', url, vault, file };
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

/**
 * The string to hand the OS opener for a parsed target. A PDF with a page becomes a file URL
 * with `#page=N` (the PDF open parameter that browsers' viewers, Acrobat and Evince honour;
 * a viewer that ignores it opens the first page).
 */
export function openTargetString(target: OpenTarget, page?: number): string {
  if (target.kind !== 'path') return target.url;
  if (page && Number.isInteger(page) && page > 0 && /\.pdf$/i.test(target.path))
    return `${pathToFileURL(target.path).href}#page=${page}`;
  return target.path;
}

export function resolveOpenTarget(link: string, folderRoots: string[], vaults: string[] = []): OpenTarget {
  const target = parseOpenTarget(link);
  if (target.kind === 'url') return target;
  if (target.kind === 'obsidian') {
    if (vaults.includes(target.vault)) return target;
    throw new CairnError('PERMISSION_DENIED', 'Cairn only opens notes of the Obsidian vaults you connected.');
  }
  if (folderRoots.some((root) => isStrictlyInside(resolve(root), target.path))) return target;
  throw new CairnError(
    'PERMISSION_DENIED',
    'Cairn only opens files that belong to one of your local-folder connections.',
  );
}

function isStrictlyInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/** A file target with its path resolved through links: what the OS opener would really open. */
export async function realOpenTarget(target: OpenTarget): Promise<OpenTarget> {
  if (target.kind !== 'path') return target;
  try {
    return { kind: 'path', path: await realpath(target.path) };
  } catch {
    throw new CairnError('NOT_FOUND', 'That file no longer exists.');
  }
}

/**
 * resolveOpenTarget, and for a file its REAL path must be inside the real path of a connected
 * folder: a link inside the folder that points at /etc/shadow passes the check by its name but
 * would open the file it leads to. Returns the target to open (the real path), which the shell
 * opens instead of the name it was given.
 */
export async function checkOpenTarget(
  link: string,
  folderRoots: string[],
  vaults: string[] = [],
): Promise<OpenTarget> {
  const target = resolveOpenTarget(link, folderRoots, vaults);
  if (target.kind !== 'path') return target;
  const real = await realOpenTarget(target);
  if (real.kind !== 'path') return real;
  const realRoots = await Promise.all(folderRoots.map((root) => realpath(resolve(root)).catch(() => null)));
  if (realRoots.some((root) => root !== null && isStrictlyInside(root, real.path))) return real;
  throw new CairnError(
    'PERMISSION_DENIED',
    'That file is a link leading outside your local-folder connections; Cairn does not open it.',
  );
}
