/**
 * A local folder of Markdown/text files (an Obsidian vault works) as a knowledge source.
 * Knowledge base = the folder's name; externalId = POSIX path relative to the root; link = the
 * absolute path; revision = mtime+size as the cheap change hint (the sync engine's content hash
 * stays the truth). Listing never reads file contents.
 */
import type { Dirent } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { access, opendir, readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import { silentLogger } from '../../logging/logger';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  ConnectorDescriptor,
} from '../connector';
import { decodeUtf8, looksBinary } from '../../text/normalize';
import { snippetAround, splitFrontMatter, stripExtension, titleFor } from './folder-text';

const TEXT_EXTENSIONS = /\.(md|markdown|mdx|txt)$/i;
// Tool folders inside vaults and projects: never knowledge (.obsidian, .git, .trash, node_modules).
const SKIPPED_NAMES = new Set(['node_modules']);

export interface FolderConnectorOptions {
  /** The folder to index; made absolute. */
  root: string;
  logger?: Logger;
  /** Files larger than this are recorded as failed instead of indexed. @default 20 MiB */
  maxFileBytes?: number;
  /** Direct search reads at most this many files per query. @default 5000 */
  searchMaxFiles?: number;
  /** Direct search skips files larger than this. @default 2 MiB */
  searchMaxFileBytes?: number;
}

export class FolderConnector implements Connector {
  readonly platform = 'folder' as const;
  readonly capabilities: ConnectorCapabilities = {
    fullText: true,
    search: true,
    experimental: false,
    limitation: null,
  };
  readonly root: string;
  readonly knowledgeBase: string;
  private readonly logger: Logger;
  private readonly maxFileBytes: number;
  private readonly searchMaxFiles: number;
  private readonly searchMaxFileBytes: number;

  constructor(options: FolderConnectorOptions) {
    this.root = resolve(options.root);
    this.knowledgeBase = basename(this.root) || this.root;
    this.logger = options.logger ?? silentLogger();
    this.maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
    this.searchMaxFiles = options.searchMaxFiles ?? 5000;
    this.searchMaxFileBytes = options.searchMaxFileBytes ?? 2 * 1024 * 1024;
  }

  async validate(signal?: AbortSignal): Promise<string> {
    await this.checkRoot();
    const cap = 10_000;
    let count = 0;
    for await (const _ref of this.list(signal)) if (++count >= cap) break;
    const found = count >= cap ? `${cap.toLocaleString('en')}+` : String(count);
    return count === 0
      ? `Folder "${this.knowledgeBase}" is readable but holds no Markdown or text files (.md, .markdown, .mdx, .txt) yet.`
      : `Folder "${this.knowledgeBase}" is readable: ${found} Markdown/text file${count === 1 ? '' : 's'}.`;
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    await this.checkRoot();
    yield* this.walk(this.root, signal);
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const path = this.pathOf(ref.externalId);
    let bytes: Buffer;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new CairnError('DOCUMENT_FAILED', `Not a regular file: ${ref.externalId}`);
      if (info.size > this.maxFileBytes) {
        throw new CairnError(
          'DOCUMENT_FAILED',
          `File too large to index: ${ref.externalId} is ${formatMiB(info.size)}, the limit is ${formatMiB(this.maxFileBytes)}.`,
        );
      }
      bytes = await readFile(path, { signal });
    } catch (error) {
      throw asDocumentFailure(error, ref.externalId, signal);
    }
    if (looksBinary(bytes))
      throw new CairnError(
        'DOCUMENT_FAILED',
        `Skipped binary file (NUL or control bytes): ${ref.externalId}`,
      );
    // The front matter stays in: the sync engine parses it (title, tags, aliases, summary) for
    // every source alike (core/text/clean-markdown.ts); its title wins over this one.
    const text = decodeUtf8(bytes).text;
    return { markdown: text, title: titleFor(basename(path), splitFrontMatter(text)) };
  }

  /** Direct mode: a bounded streaming scan for the query terms (case-insensitive substrings, so CJK works without segmentation). */
  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const terms = queryTerms(query);
    if (terms.length === 0 || options.limit <= 0) return [];
    const scored: { hit: DirectHit; score: number }[] = [];
    let filesRead = 0;
    for await (const ref of this.list(options.signal)) {
      throwIfAborted(options.signal);
      if (filesRead >= this.searchMaxFiles) break;
      const path = this.pathOf(ref.externalId);
      let bytes: Buffer;
      try {
        if ((await stat(path)).size > this.searchMaxFileBytes) continue;
        bytes = await readFile(path, { signal: options.signal });
      } catch (error) {
        throwIfAborted(options.signal);
        this.logger.debug('folder search skipped an unreadable file', {
          file: ref.externalId,
          reason: (error as Error).message,
        });
        continue;
      }
      filesRead++;
      if (looksBinary(bytes)) continue;
      const split = splitFrontMatter(decodeUtf8(bytes).text);
      const title = titleFor(basename(path), split);
      const match = scoreText(terms, title, split.body);
      if (!match) continue;
      scored.push({
        score: match.score,
        hit: {
          externalId: ref.externalId,
          title,
          snippet: snippetAround(split.body, match.firstIndex),
          url: path,
          knowledgeBase: this.knowledgeBase,
        },
      });
    }
    scored.sort((a, b) => b.score - a.score || a.hit.externalId.localeCompare(b.hit.externalId));
    return scored.slice(0, options.limit).map((entry) => entry.hit);
  }

  private async checkRoot(): Promise<void> {
    let info;
    try {
      info = await stat(this.root);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new CairnError('NOT_FOUND', `Folder not found: ${this.root}`);
      if (code === 'EACCES' || code === 'EPERM')
        throw new CairnError('PERMISSION_DENIED', `Cannot read folder ${this.root}: permission denied.`);
      throw new CairnError('SOURCE_ERROR', `Cannot open folder ${this.root}: ${(error as Error).message}`);
    }
    if (!info.isDirectory()) throw new CairnError('INVALID_ARGUMENT', `Not a folder: ${this.root}`);
    try {
      await access(this.root, fsConstants.R_OK | fsConstants.X_OK);
    } catch {
      throw new CairnError('PERMISSION_DENIED', `Cannot read folder ${this.root}: permission denied.`);
    }
  }

  /** Depth-first, sorted per directory so listings are stable; one directory's names in memory at a time. */
  private async *walk(dir: string, signal?: AbortSignal): AsyncGenerator<DocumentRef> {
    throwIfAborted(signal);
    let entries: Dirent[];
    try {
      entries = [];
      for await (const entry of await opendir(dir)) entries.push(entry);
    } catch (error) {
      if (dir === this.root) throw error;
      this.logger.warn('skipped an unreadable folder', {
        folder: relative(this.root, dir),
        reason: (error as Error).message,
      });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED_NAMES.has(entry.name)) continue;
      const path = join(dir, entry.name);
      // Symlinked folders are not followed (they can loop); symlinked files are indexed.
      if (entry.isDirectory()) {
        yield* this.walk(path, signal);
        continue;
      }
      if (!TEXT_EXTENSIONS.test(entry.name) || !(entry.isFile() || entry.isSymbolicLink())) continue;
      const ref = await this.refFor(path, entry.name);
      if (ref) yield ref;
    }
  }

  private async refFor(path: string, name: string): Promise<DocumentRef | null> {
    const externalId = relative(this.root, path).split(sep).join('/');
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return {
        externalId,
        title: stripExtension(name),
        knowledgeBase: this.knowledgeBase,
        url: path,
        remoteUpdatedAt: info.mtime.toISOString(),
        revision: `${info.mtimeMs}:${info.size}`,
      };
    } catch {
      // Broken symlink or a file that vanished mid-listing; still listed so fetch records why.
      return {
        externalId,
        title: stripExtension(name),
        knowledgeBase: this.knowledgeBase,
        url: path,
        remoteUpdatedAt: null,
        revision: null,
      };
    }
  }

  private pathOf(externalId: string): string {
    const path = resolve(this.root, ...externalId.split('/'));
    const inside = relative(this.root, path);
    if (!inside || inside.startsWith('..') || isAbsolute(inside))
      throw new CairnError('DOCUMENT_FAILED', `Path outside the folder: ${externalId}`);
    return path;
  }
}

export function createFolderConnector(init: ConnectorInit): FolderConnector {
  const root = init.config['path'];
  if (typeof root !== 'string' || !root.trim())
    throw new CairnError('INVALID_ARGUMENT', 'A folder connection needs a "path".');
  return new FolderConnector({ root, logger: init.logger });
}

function asDocumentFailure(error: unknown, externalId: string, signal: AbortSignal | undefined): CairnError {
  throwIfAborted(signal);
  if (error instanceof CairnError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'file no longer exists'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a folder'
          : (error as Error).message;
  return new CairnError('DOCUMENT_FAILED', `Cannot read ${externalId}: ${reason}`, { cause: error });
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Whitespace-separated, lower-cased terms that contain at least one letter or digit. */
export function queryTerms(query: string): string[] {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => /[\p{L}\p{N}]/u.test(term));
  return [...new Set(terms)].slice(0, 32);
}

/** Files matching more distinct terms rank first, then by occurrences, with a bonus for title matches. */
function scoreText(
  terms: string[],
  title: string,
  body: string,
): { score: number; firstIndex: number } | null {
  const lowerBody = body.toLowerCase();
  const lowerTitle = title.toLowerCase();
  let distinct = 0;
  let occurrences = 0;
  let firstIndex = -1;
  for (const term of terms) {
    let count = 0;
    for (
      let at = lowerBody.indexOf(term);
      at !== -1 && count < 100;
      at = lowerBody.indexOf(term, at + term.length)
    ) {
      if (count === 0 && (firstIndex === -1 || at < firstIndex)) firstIndex = at;
      count++;
    }
    const inTitle = lowerTitle.includes(term);
    if (count > 0 || inTitle) distinct++;
    occurrences += count + (inTitle ? 5 : 0);
  }
  if (distinct === 0) return null;
  return {
    score: distinct * 10_000 + occurrences,
    firstIndex: Math.max(0, Math.min(firstIndex, body.length)),
  };
}

export const folderDescriptor: ConnectorDescriptor = {
  platform: 'folder',
  userSignIn: false,
  limitation: () => null,
  createFactory: () => createFolderConnector,
};
