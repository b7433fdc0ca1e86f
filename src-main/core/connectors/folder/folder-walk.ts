/**
 * Walks a folder's tree safely. Links are followed only when their real path stays inside the
 * root (a link to ../secrets must not put secrets in the index); a folder reached twice (a link
 * loop, or a link to a folder already walked) is walked once; a subfolder that cannot be read is
 * reported as a gap, so the sync keeps the documents it held (only a complete listing proves
 * deletion); a name that is not valid UTF-8 is reported with that reason (Node would otherwise
 * hand out a lossy name that no later call can open: "file no longer exists" on every run).
 * Depth-first, sorted by name bytes per folder so listings are stable; one folder's names at a time.
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { throwIfAborted } from '../../errors';
import type { ListingReport } from '../connector';
import type { ExclusionRules } from './exclusions';

export interface WalkedFile {
  /** POSIX path relative to the root: the document's external id. */
  externalId: string;
  /** The path as reached from the root (through links, if any). */
  path: string;
  name: string;
  stats: Stats;
}

export interface WalkOptions {
  /** The root as given (absolute). */
  root: string;
  /** The root's real path (links resolved). */
  realRoot: string;
  rules: ExclusionRules;
  /** Whether a file name has an extension Cairn reads. */
  indexable(name: string): boolean;
  report?: ListingReport;
  signal?: AbortSignal;
  /** Reads one folder's entries (tests inject failures root cannot get from chmod). @default fs.readdir */
  readDirectory?: (path: string) => Promise<Dirent<Buffer>[]>;
}

function readDirectory(path: string): Promise<Dirent<Buffer>[]> {
  return readdir(path, { withFileTypes: true, encoding: 'buffer' });
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY_UTF8 = new TextDecoder('utf-8');

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A short English reason for a filesystem error code. */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'no longer exists';
  if (code === 'EIO') return 'input/output error';
  if (code === 'ELOOP') return 'too many levels of links';
  return (error as Error).message;
}

export async function* walkFolder(options: WalkOptions): AsyncGenerator<WalkedFile> {
  const visited = new Set<string>([options.realRoot]);
  yield* walkDir(options, visited, options.root, options.realRoot, '', options.rules);
}

async function* walkDir(
  options: WalkOptions,
  visited: Set<string>,
  dir: string,
  realDir: string,
  rel: string,
  parentRules: ExclusionRules,
): AsyncGenerator<WalkedFile> {
  throwIfAborted(options.signal);
  let entries: Dirent<Buffer>[];
  try {
    entries = await (options.readDirectory ?? readDirectory)(dir);
  } catch (error) {
    if (rel === '') throw error;
    options.report?.incomplete({
      prefix: rel,
      reason: 'folder.unreadable',
      message: `cannot read folder: ${fsReason(error)}`,
    });
    return;
  }
  const rules = await parentRules.enter(dir, rel);
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (const entry of entries) {
    throwIfAborted(options.signal);
    let name: string;
    try {
      name = STRICT_UTF8.decode(entry.name);
    } catch {
      const shown = LOSSY_UTF8.decode(entry.name);
      if (entry.isDirectory() || options.indexable(shown))
        options.report?.skipped({
          externalId: rel ? `${rel}/${shown}` : shown,
          title: shown,
          reason: 'folder.name-not-utf8',
          message: `The name of "${shown}" is not valid UTF-8 (shown with replacement characters); rename it to index it.`,
        });
      continue;
    }
    const childRel = rel ? `${rel}/${name}` : name;
    const path = join(dir, name);
    if (entry.isSymbolicLink()) {
      yield* followLink(options, visited, path, name, childRel, rules);
      continue;
    }
    if (entry.isDirectory()) {
      if (rules.excludes(childRel, name, true)) continue;
      const realChild = join(realDir, name);
      if (visited.has(realChild)) continue;
      visited.add(realChild);
      yield* walkDir(options, visited, path, realChild, childRel, rules);
    } else if (entry.isFile() && options.indexable(name) && !rules.excludes(childRel, name, false)) {
      const stats = await statOrNull(path);
      if (stats?.isFile()) yield { externalId: childRel, path, name, stats };
    }
  }
}

async function* followLink(
  options: WalkOptions,
  visited: Set<string>,
  path: string,
  name: string,
  rel: string,
  rules: ExclusionRules,
): AsyncGenerator<WalkedFile> {
  const skip = (reason: string, message: string) =>
    options.report?.skipped({ externalId: rel, title: name, reason, message });
  let real: string;
  let stats: Stats;
  try {
    real = await realpath(path);
    stats = await stat(real);
  } catch (error) {
    if (options.indexable(name))
      skip('folder.link-broken', `"${rel}" is a link whose target cannot be read (${fsReason(error)}).`);
    return;
  }
  const isDir = stats.isDirectory();
  if (rules.excludes(rel, name, isDir)) return;
  if (!isDir && !(stats.isFile() && options.indexable(name))) return;
  if (!isInside(options.realRoot, real)) {
    skip('folder.link-outside', `"${rel}" links outside the folder (to ${real}), so it is not indexed.`);
    return;
  }
  if (!isDir) {
    yield { externalId: rel, path, name, stats };
    return;
  }
  if (visited.has(real)) {
    skip(
      'folder.link-loop',
      `"${rel}" links to a folder that is already indexed (${relative(options.realRoot, real) || 'the folder itself'}).`,
    );
    return;
  }
  visited.add(real);
  yield* walkDir(options, visited, path, real, rel, rules);
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}
