/**
 * The front-matter titles of a folder's Markdown notes, so `[[wikilinks]]` and `![[embeds]]`
 * read as their target's title ("Quarterly plan") rather than its file name ("2024-q3"). Only
 * the head of each note is read (front matter comes first), once per note and revision: the cache
 * lives for the process, per folder, so a watched sync re-reads only the notes that changed.
 *
 * Staleness, chosen: a note's links are rendered when the note itself is indexed. When a target's
 * title changes, its referrers keep the old title in the index until they change themselves (or
 * are re-indexed); re-indexing every referrer of every renamed note is left out.
 */
import { posix } from 'node:path';
import { splitFrontMatter } from './folder-text';
import { openInside } from './read-inside';

/** Front matter longer than this is not read for a title (the link keeps the file name). */
const HEAD_BYTES = 16 * 1024;

export interface NoteFile {
  path: string;
  /** mtime+size: the cache's key for "unchanged". */
  revision: string | null;
}

interface Entry {
  revision: string | null;
  title: string | null;
}

/** Lower-cased path without `.md`: Obsidian matches link targets case-insensitively. */
function linkKey(externalId: string): string {
  return externalId.replace(/\.(md|markdown|mdx)$/i, '').toLowerCase();
}

export class NoteTitles {
  /** The folder's real root: a note swapped for a link leading out of it gives no title. */
  constructor(private readonly realRoot: string) {}

  private readonly entries = new Map<string, Entry>();
  /** linkKey(path) → external id, and linkKey(file name) → every note with that name. */
  private byPath = new Map<string, string>();
  private byName = new Map<string, string[]>();

  /** Brings the cache to `notes` (the folder's Markdown files now): reads the heads of changed ones. */
  async refresh(notes: ReadonlyMap<string, NoteFile>, signal?: AbortSignal): Promise<void> {
    for (const id of this.entries.keys()) if (!notes.has(id)) this.entries.delete(id);
    for (const [id, file] of notes) {
      signal?.throwIfAborted();
      const known = this.entries.get(id);
      if (known && known.revision !== null && known.revision === file.revision) continue;
      this.entries.set(id, { revision: file.revision, title: await headTitle(file.path, this.realRoot, id) });
    }
    this.byPath = new Map();
    this.byName = new Map();
    for (const id of [...this.entries.keys()].sort((a, b) => a.length - b.length || a.localeCompare(b))) {
      const key = linkKey(id);
      this.byPath.set(key, id);
      const name = posix.basename(key);
      const named = this.byName.get(name);
      if (named) named.push(id);
      else this.byName.set(name, [id]);
    }
  }

  /**
   * The front-matter title of the note a link in `from` points at (`target` is the link's file
   * part, e.g. "plans/Q3" or "Q3.md"), or null: no such note, or it has no title.
   */
  titleOf(target: string, from: string): string | null {
    const key = linkKey(target.trim().replace(/^\.?\//, ''));
    if (!key) return null;
    const id = key.includes('/') ? (this.byPath.get(key) ?? this.bySuffix(key)) : this.byNameFrom(key, from);
    return id ? (this.entries.get(id)?.title ?? null) : null;
  }

  /** A bare name: the note beside the referrer, else the one with the shortest path (Obsidian's choice). */
  private byNameFrom(name: string, from: string): string | undefined {
    const named = this.byName.get(name);
    if (!named) return undefined;
    const folder = posix.dirname(from);
    return named.find((id) => posix.dirname(id) === folder) ?? named[0];
  }

  private bySuffix(key: string): string | undefined {
    for (const [path, id] of this.byPath) if (path.endsWith(`/${key}`)) return id;
    return undefined;
  }
}

async function headTitle(path: string, realRoot: string, externalId: string): Promise<string | null> {
  let handle;
  try {
    handle = (await openInside(path, realRoot, externalId)).handle;
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return splitFrontMatter(buffer.subarray(0, bytesRead).toString('utf8')).frontMatterTitle;
  } catch {
    // Unreadable now: the link keeps the file name; the note's own sync reports the error.
    return null;
  } finally {
    await handle?.close();
  }
}

/** One cache per folder root for the life of the process (a connector is made per sync run). */
const FOLDERS = new Map<string, NoteTitles>();

export function noteTitlesFor(root: string, realRoot: string): NoteTitles {
  const key = `${root}\0${realRoot}`;
  let titles = FOLDERS.get(key);
  if (!titles) FOLDERS.set(key, (titles = new NoteTitles(realRoot)));
  return titles;
}
